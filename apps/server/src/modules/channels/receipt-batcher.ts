/**
 * Receipts gathered into batches: a carrier's receipts arrive one by one (an SMPP `deliver_sm`, a
 * webhook), and each waits (a few milliseconds at most) for the batch that stores it; the carrier
 * is answered only once its receipt is committed, or told to send it again when the batch failed.
 * One batch in flight at a time, the next one filling meanwhile. A receipt `divert` claims, on
 * arrival or when the batch leaves (by then its submit's answer has surely been seen), is stored
 * by whoever claimed it (its own batch of submits, see inflight-submits.ts) instead.
 */
export function createReceiptBatcher<E, R>(options: {
  apply: (events: E[]) => Promise<R[]>;
  divert?: (event: E) => Promise<R> | undefined;
  maxBatch?: number;
  maxDelayMs?: number;
}) {
  const maxBatch = options.maxBatch ?? 500;
  const maxDelayMs = options.maxDelayMs ?? 5;
  /** `direct`: stored by the batch whoever might claim it (it waited for its claimant already). */
  type Waiting = { event: E; resolve: (r: R) => void; reject: (err: unknown) => void; direct?: boolean };
  let queue: Waiting[] = [];
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> | undefined;

  function schedule(): void {
    if (inFlight) return;
    if (queue.length >= maxBatch) {
      clearTimeout(timer);
      timer = undefined;
      flush();
    } else if (!timer && queue.length > 0) {
      timer = setTimeout(() => {
        timer = undefined;
        flush();
      }, maxDelayMs);
    }
  }

  function flush(): void {
    if (inFlight || queue.length === 0) return;
    const taken = queue.slice(0, maxBatch);
    queue = queue.slice(taken.length);
    const batch = taken.filter((w) => {
      const elsewhere = w.direct ? undefined : options.divert?.(w.event);
      elsewhere?.then(w.resolve, w.reject);
      return !elsewhere;
    });
    if (batch.length === 0) {
      schedule();
      return;
    }
    inFlight = options
      .apply(batch.map((w) => w.event))
      .then(
        (results) => {
          for (const [i, w] of batch.entries()) w.resolve(results[i]!);
        },
        (err: unknown) => {
          for (const w of batch) w.reject(err);
        },
      )
      .finally(() => {
        inFlight = undefined;
        schedule();
      });
  }

  return {
    /** Resolves with the event's result once its batch is committed; rejects if that batch failed. */
    push(event: E): Promise<R> {
      const elsewhere = options.divert?.(event);
      if (elsewhere) return elsewhere;
      return new Promise<R>((resolve, reject) => {
        queue.push({ event, resolve, reject });
        schedule();
      });
    },
    /** Resolves with the event's result once a batch of its own stored it (never diverted). */
    store(event: E): Promise<R> {
      return new Promise<R>((resolve, reject) => {
        queue.push({ event, resolve, reject, direct: true });
        schedule();
      });
    },
    /** Stores what is waiting now. */
    async close(): Promise<void> {
      clearTimeout(timer);
      timer = undefined;
      while (inFlight || queue.length > 0) {
        flush();
        await inFlight;
      }
    },
  };
}
