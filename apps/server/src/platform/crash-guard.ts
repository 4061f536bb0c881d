import { AsyncLocalStorage } from 'node:async_hooks';
import type { Logger } from './logger.ts';

/**
 * No input ends the process. Errors nobody caught (a rejected promise nobody awaited, an
 * exception thrown from a timer or an event listener) are logged with the work they came from,
 * and fail that work — the job at hand — instead of taking the whole server down with every
 * request in flight. Without a supervisor, an exit would leave the service down; with one, the
 * same job would be handed back and crash it again.
 */

type GuardedWork = { label: Record<string, unknown>; fail(err: unknown): void };

const currentWork = new AsyncLocalStorage<GuardedWork>();

/**
 * Runs `work` so that an uncaught error anywhere in its asynchronous descendants fails it: the
 * returned promise rejects with that error and `signal` aborts, so the work can stop what it
 * started (a worker thread, a stream). `label` goes into the log line (job name and id).
 */
export function runGuarded<T>(label: Record<string, unknown>, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let reject!: (err: unknown) => void;
  const failed = new Promise<never>((_, r) => {
    reject = r;
  });
  const scope: GuardedWork = {
    label,
    fail(err) {
      if (controller.signal.aborted) return;
      controller.abort(err);
      reject(err);
    },
  };
  return currentWork.run(scope, () => Promise.race([work(controller.signal), failed]));
}

/** The process-wide handlers (installed once by each entry point: `npm start`, `npm run worker`). */
export function installCrashGuard(logger: Logger): void {
  const report = (kind: string, err: unknown) => {
    const work = currentWork.getStore();
    if (work) {
      logger.error({ err, ...work.label }, `${kind}: failing the work it came from`);
      work.fail(err);
    } else {
      logger.error({ err }, `${kind}: logged, the process keeps running`);
    }
  };
  process.on('unhandledRejection', (reason) => report('unhandled promise rejection', reason));
  process.on('uncaughtException', (err, origin) => report(`uncaught exception (${origin})`, err));
}
