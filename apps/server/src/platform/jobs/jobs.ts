import PgBoss from 'pg-boss';
import { runGuarded } from '../crash-guard.ts';
import { type DbHandle, sqlExecutorOf, type Tx } from '../db/client.ts';
import type { Logger } from '../logger.ts';
import { createJobRuns, MAX_CRASHES } from './job-runs.ts';
import type { Queue } from './queue.ts';

export { defineQueue, type Queue, type QueueOptions } from './queue.ts';

export type JobContext = {
  id: string;
  name: string;
  /** Aborted when the job is failed from outside (an uncaught error of its own, see crash-guard.ts). */
  signal: AbortSignal;
  /** No retry follows if this attempt fails: the handler should settle what the job was for. */
  lastAttempt: boolean;
};

export type JobHandler<T> = (data: T, job: JobContext) => Promise<void>;

/** Arbitrary constant: the advisory lock processes take in turn to create pg-boss queues. */
const QUEUE_SETUP_LOCK_ID = 720_451_002;

/** Why a job ended for good without succeeding: its retries ran out, its lease expired, or it was quarantined. */
export type GiveUpReason = { code: 'JOB_QUARANTINED' | 'JOB_FAILED'; message: string };

/** What works a queue's jobs in a process that works jobs. */
export type QueueWorker<T> = {
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
};

/** A declared queue and its worker, as `start` creates and works them. */
type Declared = { queue: Queue<object>; worker: QueueWorker<object> };

export type SendOptions = {
  startAfterSeconds?: number;
  singletonKey?: string;
  id?: string;
  /** Enqueue inside this transaction: the job exists if and only if the caller's writes commit. */
  tx?: Tx;
};

export interface Jobs {
  /** Declares a queue (`defineQueue`) and its worker. Handlers run only when this process works jobs. */
  work<T extends object>(queue: Queue<T>, worker: QueueWorker<NoInfer<T>>): void;
  /** Enqueues a job; this process's workers of that queue look for it at once (not at their next poll). */
  send<T extends object>(queue: Queue<T>, data: NoInfer<T>, options?: SendOptions): Promise<string | null>;
  /** Wakes this process's workers of `queue` (after the transaction that enqueued a job with `tx` committed). */
  wake(queue: Queue<object>): void;
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
  const queues = new Map<string, Declared>();
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

  function wake(queue: Queue<object>): void {
    for (const id of workerIds.get(queue.name) ?? []) boss.notifyWorker(id);
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

  async function work(worker: QueueWorker<object>, job: PgBoss.JobWithMetadata<object>): Promise<void> {
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
        worker.handler(job.data, { id: job.id, name: job.name, signal, lastAttempt }),
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
    work(queue, worker) {
      if (started) throw new Error(`queue ${queue.name} gets its worker before jobs start`);
      queues.set(queue.name, { queue, worker: worker as QueueWorker<object> });
    },
    async send(queue, data, options = {}) {
      const id = await boss.send(queue.name, data, {
        startAfter: options.startAfterSeconds,
        singletonKey: options.singletonKey,
        id: options.id,
        ...(options.tx ? { db: { executeSql: sqlExecutorOf(options.tx) } } : {}),
      });
      // In a transaction the job is invisible until the caller commits: the caller wakes then.
      if (id && !options.tx && !options.startAfterSeconds) wake(queue);
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
        for (const { queue, worker } of queues.values()) {
          const { name, options: o } = queue;
          if (worker.onGiveUp) await boss.createQueue(giveUpQueueOf(name), { name: giveUpQueueOf(name) });
          await boss.createQueue(name, {
            name,
            retryLimit: o.retryLimit ?? 3,
            retryDelay: o.retryDelaySeconds ?? 5,
            retryBackoff: true,
            expireInSeconds: o.expireInSeconds ?? 15 * 60,
            ...(worker.onGiveUp ? { deadLetter: giveUpQueueOf(name) } : {}),
          });
        }
      });
      for (const { queue, worker } of queues.values()) {
        if (!working) continue;
        const workers = worker.concurrency ?? 1;
        if (queue.options.schedule) {
          await boss.schedule(queue.name, queue.options.schedule, {}, { tz: 'America/Sao_Paulo' });
        }
        const ids: string[] = [];
        for (let i = 0; i < workers; i++) {
          ids.push(
            await boss.work<object>(
              queue.name,
              { batchSize: 1, pollingIntervalSeconds: 0.5, includeMetadata: true },
              async ([job]) => {
                if (job) await work(worker, job);
              },
            ),
          );
        }
        workerIds.set(queue.name, ids);
        const onGiveUp = worker.onGiveUp;
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
