import { fileLimitDetailsSchema } from '@ecoa/shared';
import type { TFunction } from 'i18next';
import { isApiError } from '../../platform/api';
import { codeText, errorText } from '../../platform/errors';
import { i18n, intlLocale } from '../../platform/i18n';

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
 * A list/opt-out error in the user's language, through the one catalogue, naming the reading
 * limit a file passed when the server says which. `err` is an API error or a failed list's
 * `errorCode` (with its `errorDetails` as `details`).
 */
export function listErrorText(t: TFunction, err: unknown, details?: unknown): string {
  const code = isApiError(err) ? err.code : typeof err === 'string' ? err : undefined;
  const given = details ?? (isApiError(err) ? err.details : undefined);
  if (code === 'XLSX_TOO_LARGE' || code === 'IMPORT_TOO_LARGE') {
    const what = limitText(t, given);
    if (what) return t(`lists.errors.${code}_LIMIT`, { what });
  }
  if (typeof err === 'string') return codeText(t, code, given) || t('lists.errors.generic');
  return errorText(err, t, 'lists.errors.generic');
}
