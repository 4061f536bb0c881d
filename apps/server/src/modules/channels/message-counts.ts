/**
 * Messages per channel and status without counting `messages`: the triggers of migration 0020
 * add a row of differences to `message_status_counts` for each statement that moves messages,
 * whatever code runs it; reading sums those rows, folding sums them into one row per pair. The
 * read costs the rows written since the last fold (a few per batch), never the messages. The SQL
 * is `message-counts.repository.ts`'s; when to fold is decided here.
 */
import type { MessageCountsRepository } from './message-counts.repository.ts';

export type MessageCount = { channel: string; status: string; count: number };

/** Past this many rows of differences, a read folds them (the hourly housekeeping folds too). */
const FOLD_AFTER_ROWS = 1_000;

/** Built once by the channels module, which hands it to metrics (`ChannelsModule.messageCounts`). */
export function createMessageCounts(repository: MessageCountsRepository) {
  /** One row per (channel, status): the differences summed, in one statement. */
  const fold = (): Promise<void> => repository.fold();

  return {
    /** Messages per channel and status now (pairs with none are absent). */
    async read(): Promise<MessageCount[]> {
      const counts = await repository.sums();
      if (counts.reduce((sum, r) => sum + Number(r.pieces), 0) > FOLD_AFTER_ROWS) await fold();
      return counts
        .map((r) => ({ channel: r.channel, status: r.status, count: Number(r.count) }))
        .filter((r) => r.count !== 0);
    },
    fold,
  };
}

export type MessageCounts = ReturnType<typeof createMessageCounts>;
