import type { TFunction } from 'i18next';
import { isApiError } from '../../platform/api';
import { errorText } from '../../platform/errors';

/**
 * Code request failure (spec section 8): a deactivated account (the server's USER_DEACTIVATED,
 * "Usuario desativado.") shows its code's text, "Esta conta não está ativa.";
 * a rate limit or a mail failure says so (translated); anything else is the translated
 * invalid-email message.
 */
export function requestCodeError(t: TFunction, err: unknown): string {
  if (isApiError(err)) {
    if (err.status === 0) return t('errors.network');
    if (err.code === 'USER_DEACTIVATED' || err.status === 429 || err.code === 'MAIL_FAILED') {
      return errorText(err, t, 'errors.tooManyRequests');
    }
  }
  return t('errors.invalidEmail');
}

/**
 * Sign-in failure by its code (INVALID_CODE: "Código inválido. Confira o código…", spec section
 * 8); a failure without one is that invalid-code message too.
 */
export function loginError(t: TFunction, err: unknown): string {
  return errorText(err, t, 'errors.invalidCode');
}
