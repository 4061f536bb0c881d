import { fileLimitDetailsSchema } from '@ecoa/shared';
import type { TFunction } from 'i18next';
import { isApiError } from '../../platform/api';
import { i18n, intlLocale } from '../../platform/i18n';
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

const MiB = 1024 * 1024;

/** "grows more than 200 times when unzipped": which reading limit a file passed, with its maximum. */
function limitText(t: TFunction, details: unknown): string | undefined {
  const parsed = fileLimitDetailsSchema.safeParse(details);
  if (!parsed.success) return undefined;
  const { limit, max } = parsed.data;
  const shown = /Bytes$/.test(limit) ? Math.round(max / MiB) : max;
  return t(`lists.limits.${limit}`, { max: shown.toLocaleString(intlLocale(i18n.language)) });
}

/**
 * A list/opt-out error in the user's language: `lists.errors.<CODE>` when known (naming the
 * limit passed, when the server says which), else the generic path. `details` is a failed
 * list's `errorDetails`; an API error carries its own.
 */
export function listErrorText(t: TFunction, err: unknown, details?: unknown): string {
  const code = isApiError(err) ? err.code : typeof err === 'string' ? err : undefined;
  if (code === 'XLSX_TOO_LARGE' || code === 'IMPORT_TOO_LARGE') {
    const what = limitText(t, details ?? (isApiError(err) ? err.details : undefined));
    if (what) return t(`lists.errors.${code}_LIMIT`, { what });
  }
  if (code && (LIST_ERROR_CODES as readonly string[]).includes(code)) return t(`lists.errors.${code}`);
  return translateApiError(t, err, 'lists.errors.generic');
}
