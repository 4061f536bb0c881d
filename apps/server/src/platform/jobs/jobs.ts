import PgBoss from 'pg-boss';
import type { DbHandle } from '../db/client.ts';
import type { Logger } from '../logger.ts';

export type JobHandler<T> = (data: T, job: { id: string; name: string }) => Promise<void>;

export type QueueDefinition<T> = {
  name: string;
  handler: JobHandler<T>;
  /** Concurrent jobs of this queue in one process (pg-boss polls each worker at most every 0.5 s). */
  concurrency?: number;
  retryLimit?: number;
  retryDelaySeconds?: number;
  expireInSeconds?: number;
};

export type SendOptions = { startAfterSeconds?: number; singletonKey?: string; id?: string };

export interface Jobs {
  /** Declares a queue and its handler. Handlers run only when this process works jobs. */
  define<T extends object>(queue: QueueDefinition<T>): void;
  send<T extends object>(name: string, data: T, options?: SendOptions): Promise<string | null>;
  /** Starts pg-boss, creates the declared queues and, when `work` is true, their workers. */
  start(options: { work: boolean }): Promise<void>;
  /** Graceful stop: no new jobs are fetched; running ones finish (or return to the queue after the timeout). */
  stop(timeoutMs?: number): Promise<void>;
  readonly boss: PgBoss;
}

export function createJobs(handle: DbHandle, logger: Logger): Jobs {
  const boss = new PgBoss(
    handle.kind === 'postgres'
      ? { connectionString: handle.connectionString, max: 4 }
      : { db: { executeSql: handle.executeSql } },
  );
  boss.on('error', (error) => logger.error({ err: error }, 'job queue error'));
  const queues = new Map<string, QueueDefinition<object>>();
  let started = false;

  /**
   * PGlite lives inside this one process, so a job still marked active at start was cut off by a
   * crash or a kill: hand it back to its queue now (a retry, counted as such) instead of waiting
   * for its lease (up to 15 minutes for an import). On PostgreSQL another live worker may own an
   * active job, so there the lease decides.
   */
  async function retryOrphanedJobs(): Promise<void> {
    const { rows } = await handle.executeSql(
      "select id, name from pgboss.job where state = 'active' and name = any($1::text[])",
      [[...queues.keys()]],
    );
    for (const { id, name } of rows as { id: string; name: string }[]) {
      await boss.fail(name, id, { message: 'the process stopped while working on this job' });
      logger.warn({ job: name, jobId: id }, 'job cut off by a stop or crash: back in its queue');
    }
  }

  return {
    boss,
    define(queue) {
      if (started) throw new Error(`queue ${queue.name} must be defined before jobs start`);
      queues.set(queue.name, queue as QueueDefinition<object>);
    },
    async send(name, data, options = {}) {
      return boss.send(name, data, {
        startAfter: options.startAfterSeconds,
        singletonKey: options.singletonKey,
        id: options.id,
      });
    },
    async start({ work }) {
      await boss.start();
      started = true;
      if (handle.kind === 'pglite' && work) await retryOrphanedJobs();
      for (const queue of queues.values()) {
        await boss.createQueue(queue.name, {
          name: queue.name,
          retryLimit: queue.retryLimit ?? 3,
          retryDelay: queue.retryDelaySeconds ?? 5,
          retryBackoff: true,
          expireInSeconds: queue.expireInSeconds ?? 15 * 60,
        });
        if (!work) continue;
        const workers = queue.concurrency ?? 1;
        for (let i = 0; i < workers; i++) {
          await boss.work<object>(queue.name, { batchSize: 1, pollingIntervalSeconds: 0.5 }, async ([job]) => {
            if (!job) return;
            const log = logger.child({ job: job.name, jobId: job.id });
            log.debug('job started');
            try {
              await queue.handler(job.data, { id: job.id, name: job.name });
              log.debug('job done');
            } catch (err) {
              log.error({ err }, 'job failed');
              throw err;
            }
          });
        }
      }
    },
    async stop(timeoutMs = 30_000) {
      if (!started) return;
      started = false;
      // close: false — the database handle belongs to the caller, who closes it after us.
      await boss.stop({ graceful: true, wait: true, timeout: timeoutMs, close: handle.kind === 'postgres' });
    },
  };
}
