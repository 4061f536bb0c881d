/**
 * Reads an XLSX sample in a worker thread (see sample.ts): whatever the file does, only this
 * thread's capped heap pays for it. Imports only the XLSX reader, so the thread starts quickly.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { AppError, type AppErrorWire } from '../../../platform/errors/app-error.ts';
import { readXlsxSample } from './xlsx.ts';

export type SampleWorkerInput = { filePath: string; maxRows: number };
export type SampleWorkerMessage =
  | { t: 'rows'; rows: string[][] }
  | { t: 'fail'; error: AppErrorWire }
  | { t: 'crash'; message: string };

if (parentPort) {
  const port = parentPort;
  const { filePath, maxRows } = workerData as SampleWorkerInput;
  readXlsxSample(filePath, maxRows).then(
    (rows) => port.postMessage({ t: 'rows', rows } satisfies SampleWorkerMessage),
    (err: unknown) =>
      port.postMessage(
        (err instanceof AppError
          ? { t: 'fail', error: err.toWire() }
          : { t: 'crash', message: err instanceof Error ? err.message : String(err) }) satisfies SampleWorkerMessage,
      ),
  );
}
