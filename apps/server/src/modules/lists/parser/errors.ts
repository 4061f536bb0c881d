import type { ErrorCode } from '@ecoa/shared';
import { AppError } from '../../../platform/errors/app-error.ts';

/**
 * Every way a spreadsheet can be refused (their statuses and messages are the catalogue's,
 * `ERRORS` in @ecoa/shared); a limit passed names itself in `details` ({limit, max}).
 */
export const FILE_ERROR_CODES = [
  'EMPTY_FILE',
  'UNSUPPORTED_FILE_TYPE',
  'LEGACY_XLS',
  'XLSX_BROKEN',
  'XLSX_TOO_LARGE',
  'CSV_MALFORMED',
  'CSV_RAGGED',
  'NO_DATA_ROWS',
  'NO_PHONE_COLUMN',
  'INVALID_MAPPING',
  'FILE_TOO_LARGE',
  'IMPORT_TOO_LARGE',
  'FILE_REQUIRED',
] as const satisfies readonly ErrorCode[];
export type FileErrorCode = (typeof FILE_ERROR_CODES)[number];

const FILE_CODES: ReadonlySet<string> = new Set(FILE_ERROR_CODES);

export function isFileError(err: unknown): err is AppError {
  return err instanceof AppError && FILE_CODES.has(err.code);
}

/**
 * A worker thread that died of its heap limit (ERR_WORKER_OUT_OF_MEMORY) as the file error the
 * user sees: an XLSX is refused as too large for its reader, any other file as too large to
 * import at once. Undefined for any other error.
 */
export function workerMemoryError(err: unknown, kind: 'csv' | 'xlsx', heapMb: number): AppError | undefined {
  if ((err as { code?: unknown } | null)?.code !== 'ERR_WORKER_OUT_OF_MEMORY') return undefined;
  return new AppError(kind === 'xlsx' ? 'XLSX_TOO_LARGE' : 'IMPORT_TOO_LARGE', { limit: 'heapMb', max: heapMb });
}
