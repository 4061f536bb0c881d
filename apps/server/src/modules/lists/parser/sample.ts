import { Worker } from 'node:worker_threads';
import { AppError } from '../../../platform/errors/app-error.ts';
import { workerMemoryError } from './errors.ts';
import type { SampleWorkerInput, SampleWorkerMessage } from './sample-worker.ts';
import { openSpreadsheet, type SpreadsheetInfo, sanitizeCells } from './source.ts';

/**
 * The sample thread's heap: a sample is at most a few MB of text (readXlsxSample keeps only the
 * strings its rows use), so a file that needs more is refused rather than allowed to grow.
 */
export const SAMPLE_WORKER_LIMITS = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16 };
/** A sample that takes longer has been made to (rows hidden behind a huge empty range…). */
export const SAMPLE_DEADLINE_MS = 30_000;

export type SpreadsheetSample = { sheet: SpreadsheetInfo; rows: string[][] };

/**
 * The first `maxRows` rows of an upload (the preview and the checks before an import), with the
 * file's type, encoding and separator.
 *
 * A CSV is sampled here: its parser holds at most one row of 1 MB. An XLSX is sampled in a
 * short-lived worker thread with a capped heap and a deadline, so a hostile workbook can only
 * exhaust that thread (XLSX_TOO_LARGE), never the server's main thread.
 */
export async function readSpreadsheetSample(
  filePath: string,
  maxRows: number,
  options: { sampleOnly?: boolean } = {},
): Promise<SpreadsheetSample> {
  const sheet = await openSpreadsheet(filePath, options);
  const info: SpreadsheetInfo = {
    kind: sheet.kind,
    size: sheet.size,
    ...(sheet.encoding ? { encoding: sheet.encoding } : {}),
    ...(sheet.delimiter ? { delimiter: sheet.delimiter } : {}),
  };
  if (sheet.kind === 'xlsx') {
    // Sanitized here, as openSpreadsheet's rows are (the worker loads only the XLSX reader).
    return { sheet: info, rows: sanitizeCells(await sampleXlsxInWorker(filePath, maxRows)) };
  }
  const rows: string[][] = [];
  const it = sheet.rows();
  try {
    for await (const batch of it) {
      rows.push(...batch);
      if (rows.length >= maxRows) break;
    }
  } finally {
    await it.return(undefined);
  }
  return { sheet: info, rows: rows.slice(0, maxRows) };
}

/** Sample threads at once (~30 MB each); more uploads wait their turn. */
const MAX_SAMPLE_WORKERS = 2;
let running = 0;
const queue: (() => void)[] = [];

export const sampleWorkersRunning = () => running;

export async function sampleXlsxInWorker(
  filePath: string,
  maxRows: number,
  options: { resourceLimits?: typeof SAMPLE_WORKER_LIMITS; deadlineMs?: number } = {},
): Promise<string[][]> {
  // A finished sample hands its slot straight to the next one waiting.
  if (running < MAX_SAMPLE_WORKERS) running++;
  else await new Promise<void>((resolve) => queue.push(resolve));
  try {
    return await runSampleWorker(filePath, maxRows, options);
  } finally {
    const next = queue.shift();
    if (next) next();
    else running--;
  }
}

function runSampleWorker(
  filePath: string,
  maxRows: number,
  options: { resourceLimits?: typeof SAMPLE_WORKER_LIMITS; deadlineMs?: number },
): Promise<string[][]> {
  const resourceLimits = options.resourceLimits ?? SAMPLE_WORKER_LIMITS;
  const deadlineMs = options.deadlineMs ?? SAMPLE_DEADLINE_MS;
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./sample-worker.boot.mjs', import.meta.url), {
      workerData: { filePath, maxRows } satisfies SampleWorkerInput,
      execArgv: [],
      resourceLimits,
      stdout: false,
      stderr: false,
    });
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
      void worker.terminate();
    };
    const timer = setTimeout(
      () =>
        settle(() => reject(new AppError('XLSX_TOO_LARGE', { limit: 'seconds', max: Math.round(deadlineMs / 1000) }))),
      deadlineMs,
    );
    worker.on('message', (m: SampleWorkerMessage) =>
      settle(() => {
        if (m.t === 'rows') resolve(m.rows);
        else if (m.t === 'fail') reject(AppError.fromWire(m.error));
        else reject(new Error(`XLSX sample failed: ${m.message}`));
      }),
    );
    worker.on('error', (err) =>
      settle(() => reject(workerMemoryError(err, 'xlsx', resourceLimits.maxOldGenerationSizeMb) ?? err)),
    );
    worker.on('exit', (code) => settle(() => reject(new Error(`the XLSX sample worker stopped (${code})`))));
  });
}
