/**
 * Receipts gathered into batches: a carrier's receipts arrive one by one (an SMPP `deliver_sm`, a
 * webhook), and each waits for the batch that stores it; the carrier is answered only once its
 * receipt is committed, or told to send it again when the batch failed.
 *
 * A batch leaves on the event loop's next turn (what arrived together goes together) unless
 * `maxInFlight` batches are already being stored; then it fills until one of them commits, up to
 * `maxBatch`. So a lone receipt waits for nothing, and a burst makes its own batches as large as
 * the database's pace needs. It used to wait 5 ms for company: with a carrier posting 32 webhooks
 * at a time, that wait was half of each webhook's answer time. Two in flight (each its own
 * transaction) overlap one batch's round trips and commit with the next one's work; they take
 * their carrier ids' locks and their messages' row locks in one order
 * (message-batch.repository.ts), so they cannot deadlock, and two receipts of one message are
 * stored one after the other.
 *
 * A receipt `divert` claims, on arrival or when the batch leaves (by then its submit's answer has
 * been read: the socket hands a request on after the answers before it), is stored by whoever
 * claimed it (its own batch of submits, see inflight-submits.ts) instead.
 */
export function createReceiptBatcher<E, R>(options: {
  apply: (events: E[]) => Promise<R[]>;
  divert?: (event: E) => Promise<R> | undefined;
  maxBatch?: number;
  maxInFlight?: number;
}) {
  const maxBatch = options.maxBatch ?? 500;
  const maxInFlight = options.maxInFlight ?? 1;
  /** `direct`: stored by the batch whoever might claim it (it waited for its claimant already). */
  type Waiting = { event: E; resolve: (r: R) => void; reject: (err: unknown) => void; direct?: boolean };
  let queue: Waiting[] = [];
  /** The next turn of the event loop, when the batch now filling leaves. */
  let nextTurn: NodeJS.Immediate | undefined;
  const inFlight = new Set<Promise<void>>();

  function schedule(): void {
    if (inFlight.size >= maxInFlight || queue.length === 0) return;
    if (queue.length >= maxBatch) {
      clearImmediate(nextTurn);
      nextTurn = undefined;
      flush();
    } else {
      nextTurn ??= setImmediate(() => {
        nextTurn = undefined;
        flush();
      });
    }
  }

  function flush(): void {
    if (inFlight.size >= maxInFlight || queue.length === 0) return;
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
    const stored: Promise<void> = options
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
        inFlight.delete(stored);
        schedule();
      });
    inFlight.add(stored);
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
      clearImmediate(nextTurn);
      nextTurn = undefined;
      while (inFlight.size > 0 || queue.length > 0) {
        flush();
        await Promise.all(inFlight);
      }
    },
  };
}
