import type { TFunction } from 'i18next';
import { isApiError } from '../../platform/api';
import { LIST_ERROR_CODES, listErrorText } from '../lists/errors';

const KNOWN = new Set([
  'ENRICHMENT_FORBIDDEN',
  'ENRICHMENT_NOT_FOUND',
  'ENRICHMENT_NOT_READY',
  'ENRICHMENT_NO_PHONES',
  'ENRICHMENT_TOO_LARGE',
  'NO_CNPJ_COLUMN',
  'NO_VALID_CNPJ',
  'CNPJ_BASE_EMPTY',
  'CNPJ_FOLDER_INVALID',
  'NETWORK_ERROR',
]);
const FILE_CODES = new Set<string>(LIST_ERROR_CODES);

/** An enrichment API error in the user's language (a spreadsheet's problems as the lists say them). */
export function enrichmentErrorText(t: TFunction, err: unknown): string {
  if (isApiError(err) && err.code === 'INSUFFICIENT_BALANCE') {
    const { available, requested } = (err.details ?? {}) as { available?: number; requested?: number };
    const missing = Math.max(0, (requested ?? 0) - (available ?? 0));
    return t('enrichment.errors.INSUFFICIENT_BALANCE', { count: missing });
  }
  if (isApiError(err) && err.code && KNOWN.has(err.code)) return t(`enrichment.errors.${err.code}`);
  if (isApiError(err) && err.code && FILE_CODES.has(err.code)) return listErrorText(t, err);
  return t('enrichment.errors.UNKNOWN');
}
