/**
 * The submits waiting for the bind: one `MessageJob` per OutboundMessage, one `PartJob` per
 * submit_sm (a long SMS has several). Parts leave in order, except throttled ones, which wait for
 * their retry time in a small side queue and go first when due.
 */
import { ProviderError, type SubmitResult } from '../../provider.ts';
import type { OutboundPart } from './short-message.ts';

export type MessageJob = {
  parts: PartJob[];
  /** destination_addr: the E.164 number without its `+`. */
  destination: string;
  /** Canonical SMSC ids, by part. */
  ids: (string | undefined)[];
  accepted: number;
  /** Parts written and not yet answered. */
  inFlight: number;
  /** Parts ever written (accepted, in flight, or lost with a bind). */
  written: number;
  enqueuedAt: number;
  settled: boolean;
  /**
   * A part was refused after others were taken or written: no more parts go out, and the message
   * ends `sentUnknown` (with the taken parts' ids) once the parts on the wire are answered.
   */
  refusal: ProviderError | null;
  resolve(result: SubmitResult): void;
  reject(error: ProviderError): void;
};

export type PartJob = {
  message: MessageJob;
  index: number;
  part: OutboundPart;
  /** Not before this time (a throttled part's retry). */
  notBefore: number;
  /** When the SMSC first throttled this part (the give-up clock), or null. */
  throttledSince: number | null;
  throttles: number;
};

export function newMessageJob(
  parts: OutboundPart[],
  destination: string,
  now: number,
  resolve: (result: SubmitResult) => void,
  reject: (error: ProviderError) => void,
): MessageJob {
  const job: MessageJob = {
    parts: [],
    destination,
    ids: parts.map(() => undefined),
    accepted: 0,
    inFlight: 0,
    written: 0,
    enqueuedAt: now,
    settled: false,
    refusal: null,
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
  return job;
}

export function settleWithIds(job: MessageJob): void {
  if (job.settled) return;
  job.settled = true;
  job.resolve({ providerMessageIds: job.ids.map((id) => id ?? '') });
}

/** Whether no more of this message's parts may be written. */
export function isClosed(job: MessageJob): boolean {
  return job.settled || job.refusal !== null;
}

/**
 * The message ends without every part taken. When some part was taken (or may have been: written,
 * not answered), the carrier may bill and deliver it: `sentUnknown`, keeping the taken parts' ids.
 */
export function settlePartly(job: MessageJob, error: ProviderError): void {
  const taken = job.ids.filter((id): id is string => id !== undefined);
  if (job.written === 0 && taken.length === 0) {
    settleWithError(job, error);
    return;
  }
  settleWithError(
    job,
    new ProviderError(error.reason, `${error.message} (${taken.length} of ${job.parts.length} parts taken)`, {
      sentUnknown: true,
      providerMessageIds: taken,
    }),
  );
}

export function settleWithError(job: MessageJob, error: ProviderError): void {
  if (job.settled) return;
  job.settled = true;
  job.reject(error);
}

export class SubmitQueue {
  private fifo: PartJob[] = [];
  private head = 0;
  /** Throttled parts, by retry time. */
  private retries: PartJob[] = [];

  get size(): number {
    return this.fifo.length - this.head + this.retries.length;
  }

  push(parts: PartJob[]): void {
    this.fifo.push(...parts);
  }

  retryLater(part: PartJob): void {
    this.retries.push(part);
    this.retries.sort((a, b) => a.notBefore - b.notBefore);
  }

  /**
   * The next part that may go at `now`, skipping parts of messages already settled (failed). Null
   * with `waitMs` when only throttled parts remain and none is due yet.
   */
  next(now: number): { part: PartJob | null; waitMs: number } {
    while (this.retries.length > 0 && isClosed(this.retries[0]!.message)) this.retries.shift();
    const retry = this.retries[0];
    if (retry && retry.notBefore <= now) return { part: this.retries.shift()!, waitMs: 0 };
    while (this.head < this.fifo.length) {
      const part = this.fifo[this.head]!;
      this.fifo[this.head++] = undefined as unknown as PartJob;
      this.compact();
      if (!isClosed(part.message)) return { part, waitMs: 0 };
    }
    return { part: null, waitMs: retry ? retry.notBefore - now : 0 };
  }

  /** Every message with a part still waiting (each once). */
  waitingMessages(): Set<MessageJob> {
    const jobs = new Set<MessageJob>();
    for (let i = this.head; i < this.fifo.length; i++)
      if (!isClosed(this.fifo[i]!.message)) jobs.add(this.fifo[i]!.message);
    for (const part of this.retries) if (!isClosed(part.message)) jobs.add(part.message);
    return jobs;
  }

  private compact(): void {
    if (this.head > 1024 && this.head * 2 > this.fifo.length) {
      this.fifo = this.fifo.slice(this.head);
      this.head = 0;
    }
  }
}

/** Why a message could not go out, as Ecoa's ProviderError. */
export const providerErrors = {
  closed: () => new ProviderError('SMPP_CLOSED', 'the SMPP provider is closing', { retryable: true }),
  queueFull: (max: number) =>
    new ProviderError('SMPP_QUEUE_FULL', `more than ${max} SMS parts are waiting for the bind`, { retryable: true }),
  notBound: (waitedMs: number, partlySent: boolean) =>
    partlySent
      ? new ProviderError(
          'SMPP_NOT_BOUND',
          `the bind stayed down ${waitedMs} ms with part of the message already accepted`,
          {},
        )
      : new ProviderError('SMPP_NOT_BOUND', `no SMPP bind for ${waitedMs} ms; nothing was sent`, { retryable: true }),
  bindLost: (reason: string) =>
    new ProviderError('SMPP_BIND_LOST', `the bind dropped with the message in flight (${reason})`, {
      sentUnknown: true,
    }),
  responseTimeout: (message: string) =>
    new ProviderError('SMPP_RESPONSE_TIMEOUT', `the SMSC did not answer the submit: ${message}`, {
      sentUnknown: true,
    }),
  noMessageId: () =>
    new ProviderError('SMPP_NO_MESSAGE_ID', 'the SMSC took the message without giving it an id', {
      sentUnknown: true,
    }),
  throttledTooLong: (ms: number) =>
    new ProviderError('SMPP_THROTTLED', `the SMSC kept throttling this message for ${ms} ms; nothing was sent`, {
      retryable: true,
    }),
};
