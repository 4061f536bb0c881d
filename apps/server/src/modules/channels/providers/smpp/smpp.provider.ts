/**
 * SMS short and flash over SMPP 3.4: one bind_transceiver to the carrier's SMSC.
 *
 * - Flow control is ours: at most `window` submit_sm in flight and `tps` per second on the bind
 *   (flow-control.ts); a throttling answer (ESME_RTHROTTLED, ESME_RMSGQFUL) slows the bind and
 *   retries that part, it never fails the message.
 * - The bind: enquire_link keeps it alive; after a drop it reconnects with exponential backoff.
 *   A submit in flight when the bind dropped fails with `sentUnknown` and is never re-sent; parts
 *   not yet written wait for the next bind (at most `bindWaitMs`, then a retryable error).
 * - Receipts and MO messages arrive as deliver_sm (inbound.ts), are reported through `onEvent`
 *   and answered with deliver_sm_resp once the listener took them (a temporary error when it
 *   failed, so the SMSC sends them again). Receipts are reported whatever their id: matching one
 *   that came before its submit_sm_resp was stored is the channels core's job.
 * - Nothing here touches the database, and nothing SMPP-typed leaves this folder.
 */
import net from 'node:net';
import tls from 'node:tls';
import type { SmppConfig } from '../../../../platform/config/config.ts';
import {
  type ChannelProvider,
  type OutboundMessage,
  ProviderError,
  type ProviderEvent,
  type ProviderHealth,
  type SubmitResult,
} from '../../provider.ts';
import { TpsLimiter } from './flow-control.ts';
import { isReceipt, MoReassembler, moPartOf, receiptOf } from './inbound.ts';
import { canonicalMessageId, type IdBases, ReceiptIdResolver } from './message-ids.ts';
import { describeStatus, hex8, type Pdu, STATUS } from './pdu.ts';
import { ConnectionLostError, PduSocket } from './pdu-socket.ts';
import { outboundParts } from './short-message.ts';
import {
  type MessageJob,
  type PartJob,
  providerErrors,
  SubmitQueue,
  settleWithError,
  settleWithIds,
} from './submit-queue.ts';

export type SmppProviderOptions = {
  host: string;
  port: number;
  systemId: string;
  password: string;
  /** Submits per second on the bind. */
  tps: number;
  /** submit_sm in flight on the bind. */
  window: number;
  tls?: boolean;
  mode: 'simulator' | 'real';
  /** source_addr of submits; empty lets the SMSC put the account's default sender. */
  sourceAddr?: string;
  /** When the SMSC writes receipt text ids in another base than its submit ids (message-ids.ts). */
  idBases?: IdBases;
  enquireLinkMs?: number;
  responseTimeoutMs?: number;
  reconnect?: { initialMs: number; maxMs: number };
  bindWaitMs?: number;
  maxQueuedParts?: number;
  /** First retry delay of a throttled part (doubles per throttle, at most 5 s). */
  throttleRetryMs?: number;
  throttleGiveUpMs?: number;
  clock?: () => number;
  logger?: { warn(data: object, message: string): void; info(data: object, message: string): void };
};

const DEFAULTS = {
  enquireLinkMs: 30_000,
  responseTimeoutMs: 10_000,
  reconnect: { initialMs: 500, maxMs: 30_000 },
  bindWaitMs: 30_000,
  maxQueuedParts: 20_000,
  throttleRetryMs: 200,
  throttleGiveUpMs: 120_000,
};

/** Statuses after which the same submit may succeed later (SMPP 3.4 §5.1.3): nothing was taken. */
const RETRYABLE_STATUSES = new Set<number>([
  STATUS.SYSTEM_ERROR,
  STATUS.TEMPORARY_APP_ERROR,
  STATUS.INVALID_BIND_STATUS,
]);
const THROTTLING_STATUSES = new Set<number>([STATUS.THROTTLED, STATUS.MESSAGE_QUEUE_FULL]);
/**
 * A bind refused for these will not succeed with the same credentials: waiting submits fail at
 * once (retryable) instead of waiting. ESME_RBINDFAIL is generic (an SMSC restarting says it too).
 */
const CREDENTIAL_STATUSES = new Set<number>([STATUS.INVALID_PASSWORD, STATUS.INVALID_SYSTEM_ID]);

export function smppProviderOptions(config: SmppConfig, mode: 'simulator' | 'real'): SmppProviderOptions {
  return {
    host: config.host,
    port: config.port,
    systemId: config.systemId,
    password: config.password,
    tps: config.tps,
    window: config.window,
    tls: config.url.startsWith('smpps:'),
    mode,
  };
}

export class SmppProvider implements ChannelProvider {
  readonly name = 'smpp';
  readonly channels = ['sms_short', 'sms_flash'] as const;
  readonly webhooks = [];

  private readonly o: Required<Omit<SmppProviderOptions, 'idBases' | 'logger' | 'tls' | 'sourceAddr'>> &
    SmppProviderOptions;
  private readonly limiter: TpsLimiter;
  private readonly queue = new SubmitQueue();
  private readonly ids: ReceiptIdResolver;
  private readonly mo = new MoReassembler();
  private link: PduSocket | null = null;
  private bound = false;
  private closing = false;
  private inFlight = 0;
  private reference = 0;
  private reconnectAttempt = 0;
  private unboundSince: number;
  private bindRefusal: ProviderError | null = null;
  private lastError: { message: string; at: string } | null = null;
  private listener: ((event: ProviderEvent) => Promise<void>) | null = null;
  private readonly timers = new Set<NodeJS.Timeout>();
  private pumpTimer: NodeJS.Timeout | null = null;
  private boundWaiters: (() => void)[] = [];
  private readonly counters = {
    binds: 0,
    throttleAnswers: 0,
    lowestTpsLimit: 0,
    intermediateReceipts: 0,
    protocolErrors: 0,
    reconnectDelaysMs: [] as number[],
  };

  constructor(options: SmppProviderOptions) {
    this.o = { ...DEFAULTS, clock: Date.now, ...options };
    this.limiter = new TpsLimiter(options.tps, undefined, this.now());
    this.counters.lowestTpsLimit = options.tps;
    this.ids = new ReceiptIdResolver(options.idBases);
    this.unboundSince = this.now();
    this.connect();
    this.every(250, () => {
      this.expireWaiting();
      this.flushStaleMo();
    });
    this.every(this.o.enquireLinkMs, () => this.enquireLink());
  }

  onEvent(listener: (event: ProviderEvent) => Promise<void>): void {
    this.listener = listener;
  }

  /** Resolves once bound (tests, start-up checks); rejects after `timeoutMs`. */
  ready(timeoutMs = 10_000): Promise<void> {
    if (this.bound) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no SMPP bind within ${timeoutMs} ms: ${this.lastError?.message ?? 'no answer'}`)),
        timeoutMs,
      );
      this.boundWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Counters for health pages and tests: binds made, reconnect delays used, notifications ignored. */
  stats() {
    return {
      ...this.counters,
      reconnectDelaysMs: [...this.counters.reconnectDelaysMs],
      idBases: this.ids.differingBases,
    };
  }

  submit(message: OutboundMessage): Promise<SubmitResult> {
    if (this.closing) return Promise.reject(providerErrors.closed());
    if (message.content.kind !== 'sms' || !this.channels.includes(message.channel as 'sms_short')) {
      return Promise.reject(
        new ProviderError('SMPP_UNSUPPORTED_CONTENT', `SMPP sends SMS, not ${message.content.kind}`),
      );
    }
    if (!/^\+\d{8,15}$/.test(message.to)) {
      return Promise.reject(new ProviderError('SMPP_INVALID_DESTINATION', 'the destination is not an E.164 number'));
    }
    if (message.content.text.length === 0) {
      return Promise.reject(new ProviderError('SMPP_EMPTY_MESSAGE', 'an SMS needs text'));
    }
    if (!this.bound && this.bindRefusal) return Promise.reject(this.bindRefusal);
    this.reference = (this.reference + 1) & 0xff;
    const flash = message.channel === 'sms_flash' || message.content.flash;
    const parts = outboundParts(message.content.text, flash, this.reference);
    if (parts.length > 255) {
      return Promise.reject(new ProviderError('SMPP_MESSAGE_TOO_LONG', `${parts.length} parts: at most 255`));
    }
    if (this.queue.size + parts.length > this.o.maxQueuedParts) {
      return Promise.reject(providerErrors.queueFull(this.o.maxQueuedParts));
    }
    return new Promise<SubmitResult>((resolve, reject) => {
      const job: MessageJob = {
        parts: [],
        ids: parts.map(() => undefined),
        accepted: 0,
        inFlight: 0,
        written: 0,
        enqueuedAt: this.now(),
        settled: false,
        resolve,
        reject,
      };
      job.parts = parts.map((part, index) => ({
        message: job,
        index,
        part,
        notBefore: 0,
        throttledSince: null,
        throttles: 0,
      }));
      this.destination.set(job, message.to.slice(1));
      this.queue.push(job.parts);
      this.pump();
    });
  }

  private readonly destination = new WeakMap<MessageJob, string>();

  health(): ProviderHealth {
    const now = this.now();
    return {
      provider: this.name,
      mode: this.o.mode,
      connected: this.bound,
      tpsLimit: this.limiter.effectiveLimit(now),
      tpsInUse: this.limiter.inUse(now),
      inFlight: this.inFlight,
      lastError: this.lastError,
    };
  }

  /** Stops taking submits, lets those in flight be answered (bounded), unbinds, disconnects. */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    for (const timer of this.timers) clearInterval(timer);
    this.timers.clear();
    if (this.pumpTimer) clearTimeout(this.pumpTimer);
    for (const job of this.queue.waitingMessages()) {
      if (job.written === 0) settleWithError(job, providerErrors.closed());
    }
    const link = this.link;
    if (link?.open && this.bound) {
      const deadline = this.now() + this.o.responseTimeoutMs;
      while (this.inFlight > 0 && this.now() < deadline && link.open) await new Promise((r) => setTimeout(r, 10));
      await link.request('unbind', {}, Math.min(this.o.responseTimeoutMs, 2000)).catch(() => {});
    }
    link?.destroy('closed by Ecoa');
    for (const job of this.queue.waitingMessages()) settleWithError(job, providerErrors.notBound(0, true));
  }

  // --- sending -------------------------------------------------------------------------------

  private pump(): void {
    if (this.pumpTimer) {
      clearTimeout(this.pumpTimer);
      this.pumpTimer = null;
    }
    const link = this.link;
    while (this.bound && link?.open && this.inFlight < this.o.window && this.queue.size > 0) {
      const now = this.now();
      const tpsWait = this.limiter.waitMs(now);
      if (tpsWait > 0) {
        this.pumpAfter(tpsWait);
        return;
      }
      const { part, waitMs } = this.queue.next(now);
      if (!part) {
        if (waitMs > 0) this.pumpAfter(waitMs);
        return;
      }
      this.limiter.record(now);
      this.send(link, part);
    }
  }

  private pumpAfter(ms: number): void {
    if (this.closing) return;
    this.pumpTimer = setTimeout(() => {
      this.pumpTimer = null;
      this.pump();
    }, ms);
  }

  private send(link: PduSocket, part: PartJob): void {
    const job = part.message;
    this.inFlight++;
    job.inFlight++;
    job.written++;
    const fields = {
      service_type: '',
      source_addr_ton: this.o.sourceAddr ? (/^\d+$/.test(this.o.sourceAddr) ? 1 : 5) : 0,
      source_addr_npi: this.o.sourceAddr && /^\d+$/.test(this.o.sourceAddr) ? 1 : 0,
      source_addr: this.o.sourceAddr ?? '',
      dest_addr_ton: 1,
      dest_addr_npi: 1,
      destination_addr: this.destination.get(job) ?? '',
      esm_class: part.part.esmClass,
      registered_delivery: 1,
      data_coding: part.part.dataCoding,
      short_message: part.part.shortMessage,
    };
    link.request('submit_sm', fields, this.o.responseTimeoutMs).then(
      (response) => this.onSubmitResponse(part, response),
      (err: Error) => this.onSubmitLost(part, err),
    );
  }

  private onSubmitResponse(part: PartJob, response: Pdu): void {
    const job = part.message;
    this.inFlight--;
    job.inFlight--;
    const status = response.command_status;
    const now = this.now();
    if (status === STATUS.OK) {
      const raw = typeof response.message_id === 'string' ? response.message_id : '';
      job.ids[part.index] = canonicalMessageId(raw);
      job.accepted++;
      if (job.accepted === job.parts.length) settleWithIds(job);
    } else if (THROTTLING_STATUSES.has(status) && !job.settled) {
      this.limiter.throttled(now);
      this.counters.throttleAnswers++;
      this.counters.lowestTpsLimit = Math.min(this.counters.lowestTpsLimit, this.limiter.effectiveLimit(now));
      part.throttledSince ??= now;
      part.throttles++;
      job.written--;
      if (now - part.throttledSince >= this.o.throttleGiveUpMs && job.accepted === 0 && job.inFlight === 0) {
        settleWithError(job, providerErrors.throttledTooLong(now - part.throttledSince));
      } else {
        part.notBefore = now + Math.min(5000, this.o.throttleRetryMs * 2 ** Math.min(part.throttles - 1, 10));
        this.queue.retryLater(part);
      }
    } else {
      const nothingTaken = job.accepted === 0 && job.inFlight === 0;
      settleWithError(
        job,
        new ProviderError(`SMPP_${hex8(status)}`, `the SMSC refused the message: ${describeStatus(status)}`, {
          retryable: RETRYABLE_STATUSES.has(status) && nothingTaken,
        }),
      );
    }
    this.pump();
  }

  private onSubmitLost(part: PartJob, err: Error): void {
    const job = part.message;
    this.inFlight--;
    job.inFlight--;
    const error =
      err instanceof ConnectionLostError
        ? providerErrors.bindLost(err.message)
        : providerErrors.responseTimeout(err.message);
    settleWithError(job, error);
    this.pump();
  }

  /** Messages that waited too long for a bind fail: retryable when none of their parts went out. */
  private expireWaiting(): void {
    if (this.bound) return;
    const now = this.now();
    for (const job of this.queue.waitingMessages()) {
      const waited = now - Math.max(job.enqueuedAt, this.unboundSince);
      if (waited >= this.o.bindWaitMs && job.inFlight === 0) {
        settleWithError(job, providerErrors.notBound(waited, job.accepted > 0));
      }
    }
  }

  // --- the bind ------------------------------------------------------------------------------

  private connect(): void {
    if (this.closing) return;
    const { host, port } = this.o;
    const socket = this.o.tls ? tls.connect({ host, port, servername: host }) : net.connect({ host, port });
    const link = new PduSocket(socket, {
      onRequest: (pdu) => this.onRequest(link, pdu),
      onProtocolError: (reason) => {
        this.counters.protocolErrors++;
        this.noteError(`SMPP protocol error: ${reason}`);
      },
      onClose: (reason) => this.onClose(link, reason),
    });
    this.link = link;
    socket.once(this.o.tls ? 'secureConnect' : 'connect', () => this.bind(link));
  }

  private bind(link: PduSocket): void {
    const fields = {
      system_id: this.o.systemId,
      password: this.o.password,
      system_type: '',
      interface_version: 0x34,
      addr_ton: 0,
      addr_npi: 0,
      address_range: '',
    };
    link.request('bind_transceiver', fields, this.o.responseTimeoutMs).then(
      (response) => {
        if (response.command_status === STATUS.OK) {
          this.bound = true;
          this.reconnectAttempt = 0;
          this.bindRefusal = null;
          this.counters.binds++;
          this.o.logger?.info({ host: this.o.host, port: this.o.port }, 'SMPP bound');
          for (const waiter of this.boundWaiters.splice(0)) waiter();
          this.pump();
          return;
        }
        const status = response.command_status;
        const message = `the SMSC refused the bind of "${this.o.systemId}": ${describeStatus(status)}`;
        this.noteError(message);
        if (CREDENTIAL_STATUSES.has(status)) {
          this.bindRefusal = new ProviderError(`SMPP_BIND_${hex8(status)}`, message, { retryable: true });
          for (const job of this.queue.waitingMessages()) {
            if (job.written === 0) settleWithError(job, this.bindRefusal);
          }
        }
        link.destroy(message);
      },
      (err: Error) => link.destroy(`bind_transceiver: ${err.message}`),
    );
  }

  private onClose(link: PduSocket, reason: string | null): void {
    if (this.link !== link) return;
    const wasBound = this.bound;
    this.bound = false;
    this.link = null;
    if (wasBound) this.unboundSince = this.now();
    if (this.closing) return;
    if (reason && !this.lastError?.message.startsWith('the SMSC refused')) this.noteError(`SMPP bind lost: ${reason}`);
    const delay = Math.min(this.o.reconnect.maxMs, this.o.reconnect.initialMs * 2 ** this.reconnectAttempt);
    this.reconnectAttempt++;
    this.counters.reconnectDelaysMs.push(delay);
    if (this.counters.reconnectDelaysMs.length > 20) this.counters.reconnectDelaysMs.shift();
    this.o.logger?.warn({ reason, delay }, 'SMPP reconnecting');
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.connect();
    }, delay);
    this.timers.add(timer);
  }

  private enquireLink(): void {
    const link = this.link;
    if (!this.bound || !link?.open) return;
    link.request('enquire_link', {}, this.o.responseTimeoutMs).then(
      () => {},
      (err: Error) => {
        if (!(err instanceof ConnectionLostError)) link.destroy(`enquire_link unanswered: ${err.message}`);
      },
    );
  }

  // --- what the SMSC sends -------------------------------------------------------------------

  private onRequest(link: PduSocket, pdu: Pdu): void {
    switch (pdu.command) {
      case 'enquire_link':
        link.respond(pdu, STATUS.OK);
        return;
      case 'unbind':
        link.respond(pdu, STATUS.OK);
        link.destroy('the SMSC unbound');
        return;
      case 'deliver_sm':
        this.onDeliver(pdu).then(
          (status) => link.respond(pdu, status),
          () => link.respond(pdu, STATUS.TEMPORARY_APP_ERROR),
        );
        return;
      case 'alert_notification':
        return;
      default:
        link.nack(pdu, STATUS.INVALID_COMMAND_ID);
    }
  }

  /** The deliver_sm_resp status: OK once reported, a temporary error when the listener failed. */
  private async onDeliver(pdu: Pdu): Promise<number> {
    const at = new Date(this.now());
    const events: ProviderEvent[] = [];
    if (isReceipt(pdu)) {
      const receipt = receiptOf(pdu);
      if (!receipt) {
        this.counters.protocolErrors++;
        this.noteError('SMPP receipt without a message id: refused');
        return STATUS.PERMANENT_APP_ERROR;
      }
      if (receipt.status === null) {
        this.counters.intermediateReceipts++;
        return STATUS.OK;
      }
      const id = this.ids.resolve(receipt.tlvId, receipt.textId)!;
      events.push({
        type: 'status',
        provider: this.name,
        providerMessageId: id,
        status: receipt.status,
        reason: receipt.reason,
        at,
      });
    } else {
      for (const whole of this.mo.add(moPartOf(pdu), at.getTime())) {
        events.push({ type: 'inbound', provider: this.name, from: whole.from, text: whole.text, at });
      }
    }
    if (events.length === 0) return STATUS.OK;
    if (!this.listener) return STATUS.TEMPORARY_APP_ERROR;
    try {
      for (const event of events) await this.listener(event);
      return STATUS.OK;
    } catch (err) {
      this.noteError(`the channels listener failed on an SMPP ${events[0]!.type} event: ${(err as Error).message}`);
      return STATUS.TEMPORARY_APP_ERROR;
    }
  }

  /** MO messages whose missing parts never came are reported with the parts that did. */
  private flushStaleMo(): void {
    if (this.mo.waiting === 0 || !this.listener) return;
    const at = new Date(this.now());
    for (const whole of this.mo.expire(at.getTime())) {
      this.listener({ type: 'inbound', provider: this.name, from: whole.from, text: whole.text, at }).catch((err) =>
        this.noteError(`the channels listener failed on an SMPP inbound event: ${(err as Error).message}`),
      );
    }
  }

  // --- small things --------------------------------------------------------------------------

  private now(): number {
    return this.o.clock();
  }

  private every(ms: number, fn: () => void): void {
    this.timers.add(setInterval(fn, ms));
  }

  private noteError(message: string): void {
    this.lastError = { message, at: new Date(this.now()).toISOString() };
  }
}

export function createSmppProvider(options: SmppProviderOptions): SmppProvider {
  return new SmppProvider(options);
}
