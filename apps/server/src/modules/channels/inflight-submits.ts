/**
 * Submits the carrier has taken but whose batch is not stored yet, and the receipts that come
 * back for them meanwhile. A fast carrier answers a message's receipt before the batch that sent
 * it is settled; stored alone, that receipt would be parked in `early_receipts` and the message
 * written twice. Instead it rides with its batch: the settle applies it in the same transaction,
 * and the carrier is answered once that transaction commits (told to retry if it failed).
 *
 * A receipt offered after its batch was taken (the settle has begun) is not accepted: it goes
 * the ordinary way, whose carrier-id locks wait for the settle to commit.
 *
 * A carrier waits for its answer ~15 s at most (Twilio then plays an application error to the
 * caller), and a batch can take minutes at voice pace: a receipt waits for its batch
 * `maxWaitMs` at most, then is stored the ordinary way (parked in `early_receipts`, applied when
 * its submit is stored) and answered. A key pressed on a call never waits: the person on the
 * line hears silence until it is answered.
 */
import type { ReceiptResult } from './message-batch-state.ts';
import { keyOf } from './message-batch-state.ts';
import type { StatusEvent } from './provider.ts';

type Waiting = {
  event: StatusEvent;
  resolve: (r: ReceiptResult) => void;
  reject: (err: unknown) => void;
};

/** How long a receipt waits for its batch before it is stored on its own: well within a carrier's patience. */
export const RIDE_AT_MOST_MS = 1_000;

/**
 * Rides that begin within this long of each other end together, in one timer callback: the
 * statuses of one webhook notification (or a burst of `deliver_sm`) that time out then reach the
 * receipt batcher in the same tick and are stored in one transaction, however loaded the machine
 * (one timer each could fire milliseconds apart and split them into several batches).
 */
const RIDE_JOIN_MS = 100;

export type InflightBatch = {
  /** The carrier took a message under these ids: its receipts may ride with this batch. */
  track(provider: string, providerMessageIds: string[]): void;
  /** The settle begins: no more receipts join; those that did are returned, in arrival order. */
  take(): StatusEvent[];
  /** The settle committed: each receipt taken gets its result (the same order as `take`). */
  settled(results: ReceiptResult[]): void;
  /** The settle failed or never happened: the receipts are refused (the carrier sends them again). */
  failed(err: unknown): void;
};

export function createInflightSubmits(options: {
  /** Stores a receipt the ordinary way (the receipt batcher, never back to a batch). */
  ordinary: (event: StatusEvent) => Promise<ReceiptResult>;
  maxWaitMs?: number;
  /** A monotonic clock in ms (tests give their own, so a loaded machine cannot stretch the gaps). */
  now?: () => number;
}) {
  const maxWaitMs = options.maxWaitMs ?? RIDE_AT_MOST_MS;
  const clock = options.now ?? (() => performance.now());
  const batches = new Map<string, { waiting: Waiting[] }>();
  /** The ride group a receipt offered now joins: one timer for every receipt offered within RIDE_JOIN_MS. */
  let joining: { startedAt: number; ends: Array<() => void> } | undefined;
  const whenRideEnds = (end: () => void) => {
    const now = clock();
    if (!joining || now - joining.startedAt > RIDE_JOIN_MS) {
      const group = { startedAt: now, ends: [] as Array<() => void> };
      setTimeout(() => {
        if (joining === group) joining = undefined;
        for (const e of group.ends) e();
      }, maxWaitMs).unref();
      joining = group;
    }
    joining.ends.push(end);
  };

  return {
    batch(): InflightBatch {
      const own = { waiting: [] as Waiting[] };
      const keys: string[] = [];
      let taken: Waiting[] | undefined;
      const forget = () => {
        for (const key of keys) if (batches.get(key) === own) batches.delete(key);
        keys.length = 0;
      };
      return {
        track(provider, ids) {
          if (taken) return;
          for (const id of ids) {
            const key = keyOf(provider, id);
            batches.set(key, own);
            keys.push(key);
          }
        },
        take() {
          forget();
          // From now on they wait for this settle only (a transaction, not the carrier): their
          // ride's end finds them gone from `waiting` and leaves them be.
          taken ??= own.waiting.splice(0);
          return taken.map((w) => w.event);
        },
        settled(results) {
          for (const [i, w] of (taken ?? []).entries()) w.resolve(results[i]!);
          taken = [];
        },
        failed(err) {
          forget();
          const all = [...(taken ?? []), ...own.waiting.splice(0)];
          for (const w of all) w.reject(err);
          taken = [];
        },
      };
    },

    /**
     * A receipt for a submit in flight joins its batch (resolves when stored, by the batch or,
     * after `maxWaitMs`, the ordinary way); otherwise undefined.
     */
    offer(event: StatusEvent): Promise<ReceiptResult> | undefined {
      // A key pressed: someone on the line hears silence until the carrier has its answer.
      if (event.detail?.digits !== undefined) return undefined;
      const batch = batches.get(keyOf(event.provider, event.providerMessageId));
      if (!batch) return undefined;
      return new Promise<ReceiptResult>((resolve, reject) => {
        const waiting: Waiting = { event, resolve, reject };
        whenRideEnds(() => {
          const at = batch.waiting.indexOf(waiting);
          // Taken already (its settle has begun and answers it), or refused with its batch.
          if (at < 0) return;
          batch.waiting.splice(at, 1);
          options.ordinary(event).then(resolve, reject);
        });
        batch.waiting.push(waiting);
      });
    },
  };
}

export type InflightSubmits = ReturnType<typeof createInflightSubmits>;
