import type { TFunction } from 'i18next';
import { isApiError } from '../../platform/api';
import { translateApiError } from '../auth/errors';

/** The import and file error codes the server sends (see the server's parser/errors.ts). */
export const LIST_ERROR_CODES = [
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
  'IMPORT_FAILED',
  'IMPORT_CRASHED',
  'LIST_NOT_FOUND',
  'LIST_NOT_READY',
  'OPT_OUT_NOT_FOUND',
] as const;

/** A list/opt-out error in the user's language: `lists.errors.<CODE>` when known, else the generic path. */
export function listErrorText(t: TFunction, err: unknown): string {
  const code = isApiError(err) ? err.code : typeof err === 'string' ? err : undefined;
  if (code && (LIST_ERROR_CODES as readonly string[]).includes(code)) return t(`lists.errors.${code}`);
  return translateApiError(t, err, 'lists.errors.generic');
}
