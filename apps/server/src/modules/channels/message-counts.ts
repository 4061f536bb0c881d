/**
 * Messages per channel and status without counting `messages`: the triggers of migration 0020
 * add a row of differences to `message_status_counts` for each statement that moves messages,
 * whatever code runs it; reading sums those rows, folding sums them into one row per pair. The
 * read costs the rows written since the last fold (a few per batch), never the messages.
 */
import type { DbHandle } from '../../platform/db/client.ts';

export type MessageCount = { channel: string; status: string; count: number };

/** Past this many rows of differences, a read folds them (the hourly housekeeping folds too). */
const FOLD_AFTER_ROWS = 1_000;

export function createMessageCounts(handle: Pick<DbHandle, 'executeSql'>) {
  /** One row per (channel, status): the differences summed, in one statement. */
  async function fold(): Promise<void> {
    await handle.executeSql(
      `with gone as (delete from message_status_counts returning channel, status, n)
       insert into message_status_counts (channel, status, n)
       select channel, status, sum(n) from gone group by channel, status having sum(n) <> 0`,
    );
  }

  return {
    /** Messages per channel and status now (pairs with none are absent). */
    async read(): Promise<MessageCount[]> {
      const { rows } = await handle.executeSql(
        `select channel, status, sum(n) as count, count(*) as pieces
           from message_status_counts group by channel, status`,
      );
      const counts = rows as { channel: string; status: string; count: unknown; pieces: unknown }[];
      if (counts.reduce((sum, r) => sum + Number(r.pieces), 0) > FOLD_AFTER_ROWS) await fold();
      return counts
        .map((r) => ({ channel: r.channel, status: r.status, count: Number(r.count) }))
        .filter((r) => r.count !== 0);
    },
    fold,
  };
}

export type MessageCounts = ReturnType<typeof createMessageCounts>;
