import { Worker } from 'node:worker_threads';
import { type ColumnMapping, ERRORS, fileLimitDetailsSchema } from '@ecoa/shared';
import type { Clock } from '../../platform/clock/clock.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import type { ParentMessage, WorkerInput, WorkerMessage } from './import-worker.ts';
import type { ContactWriter, ImportCounts, ImportError, ListsRepository } from './lists.repository.ts';
import type { ContactListRow } from './lists.schema.ts';
import { workerMemoryError } from './parser/errors.ts';

export { RAGGED_ROW } from './import-worker.ts';

/** Rows per COPY batch. */
const CONTACT_BATCH = 5_000;
const INVALID_BATCH = 5_000;
/**
 * The import thread's heap: the Set of a 2M-row file's numbers needs ~100 MB; the cap makes
 * the thread collect its garbage instead of growing, so an import keeps the server's memory low.
 */
const WORKER_LIMITS = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 8 };

/** Thrown inside the import when the list was deleted (cancelled) while it ran. */
export class ImportCancelled extends Error {
  constructor() {
    super('import cancelled');
    this.name = 'ImportCancelled';
  }
}

export type ImportDeps = {
  repo: ListsRepository;
  clock: Clock;
  /** How often progress is written to the list row. */
  progressIntervalMs?: number;
  /** Stops the import (its job was failed from outside). */
  signal?: AbortSignal;
};

export type ImportResult = ImportCounts & { timings: Record<string, number> };

function workerMessages(worker: Worker): AsyncGenerator<WorkerMessage> {
  const queue: WorkerMessage[] = [];
  let wake: (() => void) | undefined;
  let error: Error | undefined;
  let exited = false;
  const poke = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  worker.on('message', (m: WorkerMessage) => {
    queue.push(m);
    poke();
  });
  worker.on('error', (err) => {
    error = err;
    poke();
  });
  worker.on('exit', () => {
    exited = true;
    poke();
  });
  return (async function* () {
    for (;;) {
      const next = queue.shift();
      if (next) {
        yield next;
        continue;
      }
      if (error) throw error;
      if (exited) return;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  })();
}

/**
 * Imports an uploaded file into a list. A worker thread reads and normalises it (see
 * import-worker.ts) while this side writes: contacts by COPY (one all-or-nothing COPY on
 * PostgreSQL; batches on PGlite), invalid rows in the background, progress to the list row
 * (a deleted list stops the import). Any failure or a cancellation leaves no contact behind:
 * the PostgreSQL COPY is rolled back, and the caller deletes what PGlite batches wrote.
 */
export async function importListFile(deps: ImportDeps, list: ContactListRow): Promise<ImportResult> {
  const { repo, clock } = deps;
  const interval = deps.progressIntervalMs ?? 300;
  const started = performance.now();
  const timings: Record<string, number> = { write: 0, invalid: 0 };
  if (!list.uploadPath) throw new AppError('FILE_REQUIRED');
  if (!list.mapping) throw new AppError('INVALID_MAPPING');
  const mapping: ColumnMapping = list.mapping;
  await repo.clearImported(list.id);

  const input: WorkerInput = {
    listId: list.id,
    filePath: list.uploadPath,
    mapping,
    contactBatch: CONTACT_BATCH,
    invalidBatch: INVALID_BATCH,
  };
  const worker = new Worker(new URL('./import-worker.boot.mjs', import.meta.url), {
    workerData: input,
    execArgv: [],
    resourceLimits: WORKER_LIMITS,
    stdout: false,
    stderr: false,
  });
  const stopWorker = () => {
    worker.terminate().catch(() => {});
  };
  deps.signal?.addEventListener('abort', stopWorker, { once: true });
  let writer: ContactWriter | undefined;
  // Invalid rows are written in the background, in order. Their chain never rejects: a failure
  // is kept and thrown from this loop at the next message (an unobserved rejection here once
  // took the whole server down).
  let invalidChain: Promise<void> = Promise.resolve();
  let invalidFailure: { error: unknown } | undefined;
  let lastProgressAt = 0;
  let counts: ImportCounts | undefined;
  try {
    writer = await repo.contactWriter(list.id);
    for await (const msg of workerMessages(worker)) {
      if (invalidFailure) throw invalidFailure.error;
      switch (msg.t) {
        case 'header':
          await repo.saveDetected(list.id, mapping, msg.header);
          break;
        case 'contacts': {
          const t = performance.now();
          await writer.write(msg.bytes);
          timings.write! += performance.now() - t;
          worker.postMessage({ t: 'ack' } satisfies ParentMessage);
          break;
        }
        case 'invalid': {
          const rows = msg.rows;
          invalidChain = invalidChain.then(async () => {
            if (invalidFailure) return;
            const t = performance.now();
            try {
              await repo.insertInvalid(list.id, rows);
            } catch (error) {
              invalidFailure = { error };
            }
            timings.invalid! += performance.now() - t;
          });
          break;
        }
        case 'progress': {
          const now = performance.now();
          if (now - lastProgressAt < interval) break;
          lastProgressAt = now;
          if (!(await repo.saveProgress(list.id, msg.progress, msg.rows, clock.now()))) throw new ImportCancelled();
          break;
        }
        case 'fail':
          throw AppError.fromWire(msg.error);
        case 'done':
          counts = msg.counts;
          for (const [k, v] of Object.entries(msg.timings)) timings[`worker_${k}`] = v;
          break;
      }
    }
    deps.signal?.throwIfAborted();
    if (!counts) throw new Error('the import worker stopped without finishing');
    const t = performance.now();
    await writer.finish();
    timings.write! += performance.now() - t;
    await invalidChain;
    if (invalidFailure) throw invalidFailure.error;
    if (!(await repo.markReady(list.id, counts, clock.now()))) throw new ImportCancelled();
    timings.total = performance.now() - started;
    return { ...counts, timings };
  } catch (err) {
    await worker.terminate().catch(() => {});
    await writer?.abort().catch(() => {});
    await invalidChain;
    // The thread died of its heap cap: the file is too big for it (its own code, not IMPORT_FAILED).
    throw workerMemoryError(err, list.fileKind, WORKER_LIMITS.maxOldGenerationSizeMb) ?? err;
  } finally {
    deps.signal?.removeEventListener('abort', stopWorker);
  }
}

/** Declared beside the repository that stores it on the failed list. */
export type { ImportError };

/** The code, Portuguese message and (for a limit passed) `{limit, max}` stored on a failed list. */
export function importErrorOf(err: unknown): ImportError {
  if (err instanceof AppError && err.status < 500) {
    const details = fileLimitDetailsSchema.safeParse(err.details);
    return { code: err.code, message: err.message, ...(details.success ? { details: details.data } : {}) };
  }
  return { code: 'IMPORT_FAILED', message: ERRORS.IMPORT_FAILED.message };
}
