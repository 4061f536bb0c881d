/**
 * Submits the carrier has taken but whose batch is not stored yet, and the receipts that come
 * back for them meanwhile. A fast carrier answers a message's receipt before the batch that sent
 * it is settled; stored alone, that receipt would be parked in `early_receipts` and the message
 * written twice. Instead it rides with its batch: the settle applies it in the same transaction,
 * and the carrier is answered once that transaction commits (told to retry if it failed).
 *
 * A receipt offered after its batch was taken (the settle has begun) is not accepted: it goes
 * the ordinary way, whose carrier-id locks wait for the settle to commit.
 */
import type { ReceiptResult } from './message-batch-state.ts';
import { keyOf } from './message-batch-state.ts';
import type { StatusEvent } from './provider.ts';

type Waiting = { event: StatusEvent; resolve: (r: ReceiptResult) => void; reject: (err: unknown) => void };

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

export function createInflightSubmits() {
  const batches = new Map<string, { waiting: Waiting[] }>();

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
          taken ??= own.waiting.splice(0);
          return taken.map((w) => w.event);
        },
        settled(results) {
          for (const [i, w] of (taken ?? []).entries()) w.resolve(results[i]!);
          taken = [];
        },
        failed(err) {
          forget();
          for (const w of [...(taken ?? []), ...own.waiting.splice(0)]) w.reject(err);
          taken = [];
        },
      };
    },

    /** A receipt for a submit in flight joins its batch (resolves when stored); otherwise undefined. */
    offer(event: StatusEvent): Promise<ReceiptResult> | undefined {
      const batch = batches.get(keyOf(event.provider, event.providerMessageId));
      if (!batch) return undefined;
      return new Promise<ReceiptResult>((resolve, reject) => batch.waiting.push({ event, resolve, reject }));
    },
  };
}

export type InflightSubmits = ReturnType<typeof createInflightSubmits>;
