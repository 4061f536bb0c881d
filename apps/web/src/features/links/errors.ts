import type { TFunction } from 'i18next';
import { isApiError } from '../../platform/api';

const KNOWN = new Set([
  'LINK_SLUG_TAKEN',
  'LINK_PHONE_INVALID',
  'LINK_URL_INVALID',
  'LINK_MESSAGE_PLACEHOLDER',
  'LINK_NOT_FOUND',
  'VALIDATION_FAILED',
]);

/** A links API error in the user's language (the server's code; its own words as a last resort). */
export function linkErrorText(t: TFunction, err: unknown): string {
  if (isApiError(err) && err.code && KNOWN.has(err.code)) return t(`links.errors.${err.code}`);
  if (isApiError(err) && err.code === 'NETWORK_ERROR') return t('links.errors.NETWORK_ERROR');
  return t('links.errors.UNKNOWN');
}
