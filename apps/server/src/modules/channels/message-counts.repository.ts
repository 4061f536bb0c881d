/**
 * The SQL of the message counts (`message-counts.ts` holds when to fold): the triggers of
 * migration 0020 add a row of differences to `message_status_counts` per statement that moves
 * messages; these read the sums and fold the rows together.
 */
import type { DbHandle } from '../../platform/db/client.ts';

/** One (channel, status): the differences summed, and how many rows of them there are. */
export type MessageCountRow = { channel: string; status: string; count: unknown; pieces: unknown };

export function createMessageCountsRepository(handle: Pick<DbHandle, 'executeSql'>) {
  return {
    /** The differences summed per (channel, status), in one statement. */
    async sums(): Promise<MessageCountRow[]> {
      const { rows } = await handle.executeSql(
        `select channel, status, sum(n) as count, count(*) as pieces
           from message_status_counts group by channel, status`,
      );
      return rows as MessageCountRow[];
    },

    /** One row per (channel, status): the differences summed, in one statement. */
    async fold(): Promise<void> {
      await handle.executeSql(
        `with gone as (delete from message_status_counts returning channel, status, n)
       insert into message_status_counts (channel, status, n)
       select channel, status, sum(n) from gone group by channel, status having sum(n) <> 0`,
      );
    },
  };
}

export type MessageCountsRepository = ReturnType<typeof createMessageCountsRepository>;
