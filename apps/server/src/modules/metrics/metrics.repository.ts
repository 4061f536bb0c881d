import type { DbHandle } from '../../platform/db/client.ts';
import type { MessageCount, MessageCounts } from '../channels/index.ts';

export type JobCount = { queue: string; state: string | null; count: number };
export type { MessageCount };

/**
 * What a scrape reads from the database: one grouped query each. The message counts are the
 * channels module's (it owns `messages` and the counts kept of them), handed in by the wiring.
 */
export function createMetricsRepository(handle: Pick<DbHandle, 'executeSql'>, counts: Pick<MessageCounts, 'read'>) {
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
     * Messages per channel and status, from the counts the database keeps as messages move
     * (`channels/message-counts.ts`): never a scan of `messages`, which on PGlite would hold the
     * one embedded backend, and with it every request, for as long as the scan takes.
     */
    messageCounts: (): Promise<MessageCount[]> => counts.read(),
  };
}

export type MetricsRepository = ReturnType<typeof createMetricsRepository>;
