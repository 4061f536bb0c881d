import { sql } from 'drizzle-orm';
import type { DbHandle } from '../../platform/db/client.ts';

export type JobCount = { queue: string; state: string | null; count: number };
export type MessageCount = { channel: string; status: string; count: number };

/** The longest the messages count may run; past it the scrape goes on without it. */
const MESSAGES_COUNT_TIMEOUT = '5s';

/** What a scrape reads from the database: one grouped query each. */
export function createMetricsRepository(handle: DbHandle) {
  return {
    /**
     * Jobs per queue and state (pg-boss 10 keeps jobs in `pgboss.job`, partitioned by queue name,
     * until they are archived). Every declared queue appears, with a null state when it has no
     * job, so a queue that empties reads 0 instead of vanishing.
     */
    async jobCounts(): Promise<JobCount[]> {
      const { rows } = await handle.executeSql(
        `select q.name as queue, j.state::text as state, count(j.id) as count
           from pgboss.queue q left join pgboss.job j on j.name = q.name
          group by q.name, j.state`,
      );
      return (rows as { queue: string; state: string | null; count: unknown }[]).map((r) => ({
        queue: r.queue,
        state: r.state,
        count: Number(r.count),
      }));
    },

    /**
     * Messages per channel and status. `messages` grows with every campaign recipient and has,
     * on purpose, no index on status (every index entry a status change writes is taken from the
     * send rate), so this is a sequential scan: read-only, never blocking writers (MVCC), bounded
     * by a statement timeout, and the service runs it at most once per cache period whatever the
     * number of scrapers. Cheaper than keeping a counter table up to date on the send path.
     */
    async messageCounts(): Promise<MessageCount[]> {
      const rows = await handle.db.transaction(async (tx) => {
        await tx.execute(sql.raw(`set local statement_timeout = '${MESSAGES_COUNT_TIMEOUT}'`));
        const result = await tx.execute(
          sql`select channel, status, count(*) as count from messages group by channel, status`,
        );
        return (result as unknown as { rows: { channel: string; status: string; count: unknown }[] }).rows;
      });
      return rows.map((r) => ({ channel: r.channel, status: r.status, count: Number(r.count) }));
    },
  };
}

export type MetricsRepository = ReturnType<typeof createMetricsRepository>;
