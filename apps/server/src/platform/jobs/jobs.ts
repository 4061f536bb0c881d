import PgBoss from 'pg-boss';
import { runGuarded } from '../crash-guard.ts';
import { type DbHandle, sqlExecutorOf, type Tx } from '../db/client.ts';
import type { Logger } from '../logger.ts';
import { createJobRuns, MAX_CRASHES } from './job-runs.ts';

export type JobContext = {
  id: string;
  name: string;
  /** Aborted when the job is failed from outside (an uncaught error of its own, see crash-guard.ts). */
  signal: AbortSignal;
  /** No retry follows if this attempt fails: the handler should settle what the job was for. */
  lastAttempt: boolean;
};

export type JobHandler<T> = (data: T, job: JobContext) => Promise<void>;

/** Why a job ended for good without succeeding: its retries ran out, its lease expired, or it was quarantined. */
/** Arbitrary constant: the advisory lock processes take in turn to create pg-boss queues. */
const QUEUE_SETUP_LOCK_ID = 720_451_002;

export type GiveUpReason = { code: 'JOB_QUARANTINED' | 'JOB_FAILED'; message: string };

export type QueueDefinition<T> = {
  name: string;
  handler: JobHandler<T>;
  /**
   * Called once when a job of this queue has failed for good, whatever the way (last retry,
   * lease expired, a process that died, quarantine): the place to mark what it worked on as
   * failed, so nothing stays "in progress" forever. Runs from a dead-letter queue, so even a
   * job whose process died settles.
   */
  onGiveUp?: (data: T, reason: GiveUpReason) => Promise<void>;
  /** Concurrent jobs of this queue in one process (pg-boss polls each worker at most every 0.5 s). */
  concurrency?: number;
  /** A cron expression: pg-boss enqueues a job (with `{}`) on that schedule, once across processes. */
  schedule?: string;
  retryLimit?: number;
  retryDelaySeconds?: number;
  expireInSeconds?: number;
};

export type SendOptions = {
  startAfterSeconds?: number;
  singletonKey?: string;
  id?: string;
  /** Enqueue inside this transaction: the job exists if and only if the caller's writes commit. */
  tx?: Tx;
};

export interface Jobs {
  /** Declares a queue and its handler. Handlers run only when this process works jobs. */
  define<T extends object>(queue: QueueDefinition<T>): void;
  /** Enqueues a job; this process's workers of that queue look for it at once (not at their next poll). */
  send<T extends object>(name: string, data: T, options?: SendOptions): Promise<string | null>;
  /** Wakes this process's workers of `name` (after the transaction that enqueued a job with `tx` committed). */
  wake(name: string): void;
  /** Starts pg-boss, creates the declared queues and, when `work` is true, their workers. */
  start(options: { work: boolean }): Promise<void>;
  /** Graceful stop: no new jobs are fetched; running ones finish (or return to the queue after the timeout). */
  stop(timeoutMs?: number): Promise<void>;
  readonly boss: PgBoss;
}

/** The dead-letter queue of `queue`: pg-boss copies each job that failed for good into it. */
const giveUpQueueOf = (queue: string) => `${queue}.given-up`;

/** Thrown instead of running a job that took its process down MAX_CRASHES times. */
export class JobQuarantined extends Error {
  readonly code = 'JOB_QUARANTINED';
  constructor(crashes: number) {
    super(`quarantined: the process stopped ${crashes} times while working on this job, so it is not run again`);
    this.name = 'JobQuarantined';
  }
}

/** What pg-boss stored as a failed job's output: a serialized error, or `{value: {message}}` for a timeout. */
function giveUpReasonOf(output: unknown): GiveUpReason {
  const o = (output ?? {}) as { code?: unknown; message?: unknown; value?: { message?: unknown } };
  const message = String(o.message ?? o.value?.message ?? 'failed');
  return { code: o.code === 'JOB_QUARANTINED' ? 'JOB_QUARANTINED' : 'JOB_FAILED', message };
}

export type JobsOptions = {
  /** How often pg-boss fails jobs whose lease expired (their process died, on PostgreSQL). */
  maintenanceIntervalSeconds?: number;
};

export function createJobs(handle: DbHandle, logger: Logger, options: JobsOptions = {}): Jobs {
  const boss = new PgBoss({
    ...(handle.kind === 'postgres'
      ? { connectionString: handle.connectionString, max: 4 }
      : { db: { executeSql: handle.executeSql } }),
    ...(options.maintenanceIntervalSeconds ? { maintenanceIntervalSeconds: options.maintenanceIntervalSeconds } : {}),
  });
  boss.on('error', (error) => logger.error({ err: error }, 'job queue error'));
  const queues = new Map<string, QueueDefinition<object>>();
  const runs = createJobRuns(handle.executeSql);
  const workerIds = new Map<string, string[]>();
  let started = false;

  /** Runs `fn` while holding a PostgreSQL advisory lock (PGlite: one process, nothing to wait for). */
  async function inTurn(fn: () => Promise<void>): Promise<void> {
    if (!handle.pool) return fn();
    const client = await handle.pool.connect();
    try {
      await client.query('select pg_advisory_lock($1)', [QUEUE_SETUP_LOCK_ID]);
      await fn();
    } finally {
      await client.query('select pg_advisory_unlock($1)', [QUEUE_SETUP_LOCK_ID]).catch(() => {});
      client.release();
    }
  }

  function wake(name: string): void {
    for (const id of workerIds.get(name) ?? []) boss.notifyWorker(id);
  }

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

  async function work(queue: QueueDefinition<object>, job: PgBoss.JobWithMetadata<object>): Promise<void> {
    const log = logger.child({ job: job.name, jobId: job.id });
    const lastAttempt = job.retryCount >= job.retryLimit;
    const { crashes } = await runs.started(job.id, job.name);
    if (crashes >= MAX_CRASHES) {
      // No retry after this failure: the dead-letter queue settles it (onGiveUp).
      await handle.executeSql('update pgboss.job set retry_limit = retry_count where id = $1', [job.id]);
      await runs.forget(job.id);
      log.error({ crashes }, 'job quarantined: it took its process down twice');
      throw new JobQuarantined(crashes);
    }
    log.debug('job started');
    let succeeded = false;
    try {
      await runGuarded({ job: job.name, jobId: job.id }, (signal) =>
        queue.handler(job.data, { id: job.id, name: job.name, signal, lastAttempt }),
      );
      succeeded = true;
      log.debug('job done');
    } catch (err) {
      log.error({ err, lastAttempt }, 'job failed');
      throw err;
    } finally {
      await (succeeded || lastAttempt ? runs.forget(job.id) : runs.ended(job.id)).catch((err: unknown) =>
        log.warn({ err }, 'could not record the end of a job'),
      );
    }
  }

  return {
    boss,
    define(queue) {
      if (started) throw new Error(`queue ${queue.name} must be defined before jobs start`);
      if ((queue.retryLimit ?? 3) < MAX_CRASHES) {
        throw new Error(
          `queue ${queue.name}: retryLimit must be at least ${MAX_CRASHES}, so a crash can be quarantined`,
        );
      }
      queues.set(queue.name, queue as QueueDefinition<object>);
    },
    async send(name, data, options = {}) {
      const id = await boss.send(name, data, {
        startAfter: options.startAfterSeconds,
        singletonKey: options.singletonKey,
        id: options.id,
        ...(options.tx ? { db: { executeSql: sqlExecutorOf(options.tx) } } : {}),
      });
      // In a transaction the job is invisible until the caller commits: the caller wakes then.
      if (id && !options.tx && !options.startAfterSeconds) wake(name);
      return id;
    },
    wake,
    async start({ work: working }) {
      await boss.start();
      started = true;
      if (handle.kind === 'pglite' && working) await retryOrphanedJobs();
      // pg-boss's createQueue is not safe to race (two processes starting together on a fresh
      // database: one fails on the queue's table): processes create the queues in turn.
      await inTurn(async () => {
        for (const queue of queues.values()) {
          if (queue.onGiveUp) await boss.createQueue(giveUpQueueOf(queue.name), { name: giveUpQueueOf(queue.name) });
          await boss.createQueue(queue.name, {
            name: queue.name,
            retryLimit: queue.retryLimit ?? 3,
            retryDelay: queue.retryDelaySeconds ?? 5,
            retryBackoff: true,
            expireInSeconds: queue.expireInSeconds ?? 15 * 60,
            ...(queue.onGiveUp ? { deadLetter: giveUpQueueOf(queue.name) } : {}),
          });
        }
      });
      for (const queue of queues.values()) {
        if (!working) continue;
        const workers = queue.concurrency ?? 1;
        if (queue.schedule) await boss.schedule(queue.name, queue.schedule, {}, { tz: 'America/Sao_Paulo' });
        const ids: string[] = [];
        for (let i = 0; i < workers; i++) {
          ids.push(
            await boss.work<object>(
              queue.name,
              { batchSize: 1, pollingIntervalSeconds: 0.5, includeMetadata: true },
              async ([job]) => {
                if (job) await work(queue, job);
              },
            ),
          );
        }
        workerIds.set(queue.name, ids);
        const onGiveUp = queue.onGiveUp;
        if (onGiveUp) {
          await boss.work<object>(
            giveUpQueueOf(queue.name),
            { batchSize: 1, pollingIntervalSeconds: 1, includeMetadata: true },
            async ([job]) => {
              if (!job) return;
              const reason = giveUpReasonOf(job.output);
              logger.warn({ job: queue.name, reason }, 'job given up: settling what it worked on');
              await onGiveUp(job.data, reason);
            },
          );
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
