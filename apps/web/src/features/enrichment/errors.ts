import type { TFunction } from 'i18next';
import { isApiError } from '../../platform/api';
import { errorText } from '../../platform/errors';
import { listErrorText } from '../lists';

/**
 * An enrichment API error in the user's language: the missing credits counted, else through the
 * one catalogue (a spreadsheet's problems as the lists say them, with their limits).
 */
export function enrichmentErrorText(t: TFunction, err: unknown): string {
  if (isApiError(err) && err.code === 'INSUFFICIENT_BALANCE') {
    const { available, requested } = (err.details ?? {}) as { available?: number; requested?: number };
    const missing = Math.max(0, (requested ?? 0) - (available ?? 0));
    return t('enrichment.errors.INSUFFICIENT_BALANCE', { count: missing });
  }
  if (isApiError(err) && (err.code === 'XLSX_TOO_LARGE' || err.code === 'IMPORT_TOO_LARGE'))
    return listErrorText(t, err);
  return errorText(err, t, 'enrichment.errors.UNKNOWN');
}
