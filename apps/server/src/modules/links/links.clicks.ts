/**
 * Clicks written in batches, off the hop's path: the visitor is redirected at once, the click
 * waits here (≤ 500 or 200 ms) and goes in with its neighbours in one INSERT. A failed write is
 * kept and tried again; `close()` (a clean shutdown) writes everything still waiting.
 */
import type { DbOrTx } from '../../platform/db/client.ts';
import type { Logger } from '../../platform/logger.ts';
import type { NewLinkClick } from './links.schema.ts';

/**
 * What the customer's `link.click` webhook says of a click (the row keeps ids only): whose link,
 * where the visitor went, and the recipient when the click came from a campaign's tracked link.
 */
export type ClickedLink = {
  userId: string;
  linkId: string | null;
  slug: string | null;
  url: string | null;
  messageId: string | null;
  campaignId: string | null;
  to: string | null;
  at: Date;
};

/** A click waiting to be written, with what its webhook event will say. */
export type RecordedClick = NewLinkClick & { clicked: ClickedLink };

/** Called in the transaction that writes a batch of clicks (the webhooks' outbox goes in with them). */
export type OnLinkClicks = (clicks: ClickedLink[], tx: DbOrTx) => Promise<void>;

export function createClickRecorder<T extends NewLinkClick = NewLinkClick>(options: {
  insert: (clicks: T[]) => Promise<void>;
  logger: Logger;
  maxBatch?: number;
  maxDelayMs?: number;
  /** Past this many waiting (the database gone for long), the oldest are dropped and counted. */
  maxWaiting?: number;
}) {
  const maxBatch = options.maxBatch ?? 500;
  const maxDelayMs = options.maxDelayMs ?? 200;
  const maxWaiting = options.maxWaiting ?? 200_000;
  let waiting: T[] = [];
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> | undefined;
  let dropped = 0;

  function schedule(delay = maxDelayMs): void {
    if (timer || writing || waiting.length === 0) return;
    timer = setTimeout(() => {
      timer = undefined;
      void write();
    }, delay);
    timer.unref();
  }

  async function write(): Promise<void> {
    if (writing || waiting.length === 0) return writing;
    const batch = waiting.slice(0, maxBatch);
    waiting = waiting.slice(batch.length);
    let failed = false;
    writing = options
      .insert(batch)
      .catch((err: unknown) => {
        failed = true;
        waiting = [...batch, ...waiting];
        options.logger.error({ err, clicks: batch.length }, 'link clicks not written yet; trying again');
      })
      .finally(() => {
        writing = undefined;
        if (waiting.length >= maxBatch && !failed) void write();
        else schedule(failed ? 1000 : maxDelayMs);
      });
    return writing;
  }

  return {
    record(click: T): void {
      waiting.push(click);
      if (waiting.length > maxWaiting) {
        dropped += waiting.length - maxWaiting;
        waiting = waiting.slice(waiting.length - maxWaiting);
      }
      if (waiting.length >= maxBatch && !writing) {
        clearTimeout(timer);
        timer = undefined;
        void write();
      } else schedule();
    },

    /** Clicks not written yet, and those dropped since start. */
    stats: () => ({ waiting: waiting.length, dropped }),

    /** Writes what is waiting (a clean shutdown); gives up after a few failed tries. */
    async close(): Promise<void> {
      clearTimeout(timer);
      timer = undefined;
      for (let tries = 0; (writing || waiting.length > 0) && tries < 20; ) {
        const before = waiting.length;
        await (writing ?? write());
        if (waiting.length >= before && !writing) tries++;
      }
      clearTimeout(timer);
      timer = undefined;
      if (waiting.length > 0) options.logger.error({ clicks: waiting.length }, 'link clicks lost at shutdown');
    },
  };
}

export type ClickRecorder = ReturnType<typeof createClickRecorder<RecordedClick>>;
