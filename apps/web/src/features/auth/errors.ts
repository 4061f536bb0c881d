import type { TFunction } from 'i18next';
import { isApiError } from '../../platform/api';
import { errorText } from '../../platform/errors';

/**
 * Code request failure (spec section 8): a deactivated account (the server's USER_DEACTIVATED,
 * "Usuario desativado.") shows "Esta conta não está ativa.";
 * a rate limit or a mail failure says so (translated); anything else is the translated
 * invalid-email message.
 */
export function requestCodeError(t: TFunction, err: unknown): string {
  if (isApiError(err)) {
    if (err.code === 'USER_DEACTIVATED') return t('errors.accountInactive');
    if (err.status === 0) return t('errors.network');
    if (err.status === 429 || err.code === 'MAIL_FAILED') return errorText(err, t, 'errors.tooManyRequests');
  }
  return t('errors.invalidEmail');
}

/** Sign-in failure: an invalid code is the translated invalid-code message (spec section 8). */
export function loginError(t: TFunction, err: unknown): string {
  if (isApiError(err) && err.code === 'INVALID_CODE') return t('errors.invalidCode');
  return errorText(err, t, 'errors.invalidCode');
}
