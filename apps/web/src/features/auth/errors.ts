import { validationKeyOf } from '@ecoa/shared';
import type { TFunction } from 'i18next';
import { isApiError } from '../../platform/api';
import { errorText, validationText } from '../../platform/errors';

/**
 * A form field's message in the user's language: the shared zod schemas build their issues from
 * the shared validation messages, whose key (`validationKeyOf`) is translated under
 * `validation.<key>`; any other (a library's English default) is the translated generic
 * "invalid value", never shown as it is.
 */
export function translateValidation(t: TFunction, message: string | undefined): string | undefined {
  if (!message) return undefined;
  return validationText(t, validationKeyOf(message)) || t('validation.invalid');
}

/** An API error in the user's language, through the one catalogue (`platform/errors.ts`). */
export function translateApiError(t: TFunction, err: unknown, fallbackKey: string): string {
  return errorText(err, t, fallbackKey);
}

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
