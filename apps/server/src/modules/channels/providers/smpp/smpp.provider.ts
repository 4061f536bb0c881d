/**
 * SMS short and flash over SMPP 3.4: one bind_transceiver to the carrier's SMSC.
 *
 * - Flow control is ours: at most `window` submit_sm in flight and `tps` per second on the bind
 *   (flow-control.ts); a throttling answer (ESME_RTHROTTLED, ESME_RMSGQFUL) slows the bind and
 *   retries that part, it never fails the message.
 * - The bind (bind.ts): enquire_link keeps it alive; after a drop it reconnects with exponential backoff.
 *   A submit in flight when the bind dropped fails with `sentUnknown` and is never re-sent; parts
 *   not yet written wait for the next bind (at most `bindWaitMs`, then a retryable error).
 * - Receipts and MO messages arrive as deliver_sm (deliveries.ts, inbound.ts), are reported through `onEvent`
 *   and answered with deliver_sm_resp once the listener took them (a temporary error when it
 *   failed, so the SMSC sends them again). Receipts are reported whatever their id: matching one
 *   that came before its submit_sm_resp was stored is the channels core's job.
 * - Nothing here touches the database, and nothing SMPP-typed leaves this folder.
 */
import {
  type ChannelProvider,
  type EventListener,
  type OutboundMessage,
  type ProviderCounters,
  ProviderError,
  type ProviderHealth,
  type SubmitOptions,
  type SubmitResult,
  submitStopped,
} from '../../provider.ts';
import { AbortGroups } from './abort-groups.ts';
import { SmppBind } from './bind.ts';
import { Deliveries } from './deliveries.ts';
import { TpsLimiter } from './flow-control.ts';
import { canonicalMessageId, ReceiptIdResolver } from './message-ids.ts';
import { describeStatus, hex8, type Pdu, STATUS } from './pdu.ts';
import { ConnectionLostError, type PduSocket } from './pdu-socket.ts';
import {
  RETRYABLE_STATUSES,
  SMPP_PROVIDER_DEFAULTS,
  type SmppProviderOptions,
  THROTTLING_STATUSES,
} from './provider-options.ts';
import { outboundParts, submitSmFields } from './short-message.ts';
import {
  type MessageJob,
  newMessageJob,
  type PartJob,
  providerErrors,
  SubmitQueue,
  settlePartly,
  settleWithError,
  settleWithIds,
} from './submit-queue.ts';

export class SmppProvider implements ChannelProvider {
  readonly name = 'smpp';
  readonly channels = ['sms_short', 'sms_flash'] as const;
  readonly webhooks = [];

  private readonly o: Required<Omit<SmppProviderOptions, 'idBases' | 'logger' | 'tls' | 'sourceAddr' | 'share'>> &
    SmppProviderOptions;
  private readonly limiter: TpsLimiter;
  private readonly queue = new SubmitQueue();
  private readonly ids: ReceiptIdResolver;
  private readonly deliveries: Deliveries;
  private readonly bind: SmppBind;
  private readonly housekeeping: NodeJS.Timeout;
  private closing = false;
  private inFlight = 0;
  private reference = 0;
  private unboundSince: number;
  private bindRefusal: ProviderError | null = null;
  private lastError: { message: string; at: string } | null = null;
  private pumpTimer: NodeJS.Timeout | null = null;
  /** Each waiting message's stop signal (the dispatcher's: its campaign paused, canceled, or the process stopping). */
  private readonly stopSignals = new WeakMap<MessageJob, AbortSignal | undefined>();
  /** A stopped sending drops its messages none of whose parts was written. */
  private readonly stopGroups = new AbortGroups<MessageJob>((job) => this.dropIfUnwritten(job));
  private readonly counters = { throttleAnswers: 0, lowestTpsLimit: 0 };

  constructor(options: SmppProviderOptions) {
    this.o = { ...SMPP_PROVIDER_DEFAULTS, clock: Date.now, ...options };
    this.limiter = new TpsLimiter(options.tps, 1000 + this.o.tpsMarginMs, this.now(), options.share);
    this.counters.lowestTpsLimit = options.tps;
    this.ids = new ReceiptIdResolver(options.idBases);
    this.unboundSince = this.now();
    const noteError = (message: string) => this.noteError(message);
    this.deliveries = new Deliveries(this.name, this.ids, () => this.now(), noteError, this.o.logger);
    this.bind = new SmppBind(this.o, {
      onBound: () => {
        this.bindRefusal = null;
        this.pump();
      },
      onUnbound: () => {
        this.unboundSince = this.now();
      },
      onRefused: (status, message) => this.onBindRefused(status, message),
      onRequest: (link, pdu) => this.onRequest(link, pdu),
      onError: noteError,
    });
    this.housekeeping = setInterval(() => {
      this.expireWaiting();
      this.deliveries.flushStaleMo();
    }, 250);
  }

  onEvent(listener: EventListener): void {
    this.deliveries.listener = listener;
  }

  receiptCounters(): ProviderCounters {
    return { unmatchedReceipts: this.deliveries.unmatchedReceipts };
  }

  /** Resolves once bound (tests, start-up checks); rejects after `timeoutMs`. */
  ready(timeoutMs = 10_000): Promise<void> {
    return this.bind.ready(timeoutMs, () => this.lastError?.message ?? 'no answer');
  }

  /** Counters for health pages and tests: binds, reconnect delays, throttling, receipts not reported. */
  stats() {
    return {
      ...this.counters,
      binds: this.bind.binds,
      reconnectDelaysMs: [...this.bind.reconnectDelaysMs],
      intermediateReceipts: this.deliveries.intermediateReceipts,
      refusedReceipts: this.deliveries.refusedReceipts,
      unmatchedReceipts: this.deliveries.unmatchedReceipts,
      idBases: this.ids.differingBases,
    };
  }

  submit(message: OutboundMessage, { signal }: SubmitOptions = {}): Promise<SubmitResult> {
    if (this.closing) return Promise.reject(providerErrors.closed());
    if (signal?.aborted) return Promise.reject(submitStopped(this.name));
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
    if (!this.bind.bound && this.bindRefusal) return Promise.reject(this.bindRefusal);
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
      // The sending stopped: a message none of whose parts was written leaves the queue, not sent.
      const forget = () => this.stopGroups.delete(signal, job);
      const job: MessageJob = newMessageJob(
        parts,
        message.to.slice(1),
        this.now(),
        (result) => {
          forget();
          resolve(result);
        },
        (error) => {
          forget();
          reject(error);
        },
      );
      this.stopSignals.set(job, signal);
      this.stopGroups.add(signal, job);
      this.queue.push(job.parts);
      this.pump();
    });
  }

  /** A message whose sending stopped, nothing of it on the wire or taken: it fails as "not sent". */
  private dropIfUnwritten(job: MessageJob): boolean {
    if (job.settled || job.written > 0) return false;
    settleWithError(job, submitStopped(this.name));
    return true;
  }

  health(): ProviderHealth {
    const now = this.now();
    return {
      provider: this.name,
      mode: this.o.mode,
      connected: this.bind.bound,
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
    clearInterval(this.housekeeping);
    if (this.pumpTimer) clearTimeout(this.pumpTimer);
    for (const job of this.queue.waitingMessages()) {
      if (job.written === 0) settleWithError(job, providerErrors.closed());
    }
    await this.bind.close(() => this.inFlight === 0);
    for (const job of this.queue.waitingMessages()) settleWithError(job, providerErrors.notBound(0, true));
  }

  // --- sending -------------------------------------------------------------------------------

  private pump(): void {
    if (this.pumpTimer) {
      clearTimeout(this.pumpTimer);
      this.pumpTimer = null;
    }
    const link = this.bind.link;
    while (link?.open && this.inFlight < this.o.window && this.queue.size > 0) {
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
    const fields = submitSmFields(part.part, job.destination, this.o.sourceAddr);
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
      const id = canonicalMessageId(typeof response.message_id === 'string' ? response.message_id : '');
      if (id === '') {
        // Taken, but no receipt could ever be matched to it: never re-sent, its fate unknown.
        settleWithError(job, providerErrors.noMessageId());
      } else {
        job.ids[part.index] = id;
        this.ids.noteSubmitted(id);
        job.accepted++;
        if (job.accepted === job.parts.length) settleWithIds(job);
        else if (job.refusal && job.inFlight === 0) settlePartly(job, job.refusal);
      }
    } else if (THROTTLING_STATUSES.has(status) && !job.settled && !job.refusal) {
      this.limiter.throttled(now);
      this.counters.throttleAnswers++;
      this.counters.lowestTpsLimit = Math.min(this.counters.lowestTpsLimit, this.limiter.effectiveLimit(now));
      part.throttledSince ??= now;
      part.throttles++;
      job.written--;
      // Stopped while this part was out: it was not taken, so the message goes back unsent.
      if (this.stopSignals.get(job)?.aborted === true && this.dropIfUnwritten(job)) this.pump();
      else if (now - part.throttledSince >= this.o.throttleGiveUpMs && job.accepted === 0 && job.inFlight === 0) {
        settleWithError(job, providerErrors.throttledTooLong(now - part.throttledSince));
      } else {
        part.notBefore = now + Math.min(5000, this.o.throttleRetryMs * 2 ** Math.min(part.throttles - 1, 10));
        this.queue.retryLater(part);
      }
    } else if (!job.settled) {
      job.written--;
      const nothingTaken = job.accepted === 0 && job.written === 0;
      const refusal = new ProviderError(
        `SMPP_${hex8(status)}`,
        `the SMSC refused the message: ${describeStatus(status)}`,
        { retryable: RETRYABLE_STATUSES.has(status) && nothingTaken },
      );
      // A long SMS refused after some of its parts were taken: the carrier bills (and may deliver)
      // those, so it is `unknown`, never refunded; parts still on the wire are awaited for their ids.
      if (nothingTaken) settleWithError(job, refusal);
      else {
        job.refusal ??= refusal;
        if (job.inFlight === 0) settlePartly(job, job.refusal);
      }
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
    // sentUnknown either way; the ids of parts already taken are kept.
    settlePartly(job, error);
    this.pump();
  }

  /** Messages that waited too long for a bind fail: retryable when none of their parts went out. */
  private expireWaiting(): void {
    if (this.bind.bound) return;
    const now = this.now();
    for (const job of this.queue.waitingMessages()) {
      const waited = now - Math.max(job.enqueuedAt, this.unboundSince);
      if (waited >= this.o.bindWaitMs && job.inFlight === 0) {
        settlePartly(job, providerErrors.notBound(waited, job.accepted > 0));
      }
    }
  }

  // --- the bind and what the SMSC sends -------------------------------------------------------

  private onBindRefused(status: number, message: string): void {
    if (status !== STATUS.INVALID_PASSWORD && status !== STATUS.INVALID_SYSTEM_ID) return;
    // Retrying the same credentials cannot work: waiting submits fail now (retryable, nothing sent).
    this.bindRefusal = new ProviderError(`SMPP_BIND_${hex8(status)}`, message, { retryable: true });
    for (const job of this.queue.waitingMessages()) {
      if (job.written === 0) settleWithError(job, this.bindRefusal);
    }
  }

  private onRequest(link: PduSocket, pdu: Pdu): void {
    if (pdu.command === 'deliver_sm') {
      this.deliveries.handle(pdu).then(
        (status) => link.respond(pdu, status),
        () => link.respond(pdu, STATUS.TEMPORARY_APP_ERROR),
      );
    } else if (pdu.command !== 'alert_notification') {
      link.nack(pdu, STATUS.INVALID_COMMAND_ID);
    }
  }

  // --- small things --------------------------------------------------------------------------

  private now(): number {
    return this.o.clock();
  }

  private noteError(message: string): void {
    this.lastError = { message, at: new Date(this.now()).toISOString() };
  }
}

export { type SmppProviderOptions, smppProviderOptions } from './provider-options.ts';

export function createSmppProvider(options: SmppProviderOptions): SmppProvider {
  return new SmppProvider(options);
}
