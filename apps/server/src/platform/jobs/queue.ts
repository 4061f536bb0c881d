import { MAX_CRASHES } from './job-runs.ts';

/**
 * How a queue keeps its jobs, the same in every process: pg-boss's queue options and an
 * optional schedule. Who works them, and how many at once, is the worker's (`jobs.work`).
 */
export type QueueOptions = {
  /** A cron expression: pg-boss enqueues a job (with `{}`) on that schedule, once across processes. */
  schedule?: string;
  /** At least MAX_CRASHES, so a job that keeps taking its process down is quarantined, not retried forever. */
  retryLimit?: number;
  retryDelaySeconds?: number;
  /** The lease: a job running longer than this is taken for dead (its process died, on PostgreSQL). */
  expireInSeconds?: number;
};

declare const payloadType: unique symbol;

/**
 * A job queue: its name, its options and (as a type only) its payload. Declared once, beside the
 * jobs that work it (`<feature>.jobs.ts`); `jobs.send` and `jobs.work` both take the handle, so
 * the payload a sender enqueues is the one the handler reads, checked by the compiler.
 */
export type Queue<T extends object> = {
  readonly name: string;
  readonly options: QueueOptions;
  readonly [payloadType]?: T;
};

export function defineQueue<T extends object>(name: string, options: QueueOptions = {}): Queue<T> {
  if ((options.retryLimit ?? 3) < MAX_CRASHES) {
    throw new Error(`queue ${name}: retryLimit must be at least ${MAX_CRASHES}, so a crash can be quarantined`);
  }
  return { name, options };
}
