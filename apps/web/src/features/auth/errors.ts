import { MESSAGES } from '@ecoa/shared';
import type { TFunction } from 'i18next';
import { type ApiError, isApiError } from '../../platform/api';

/** The server's message for a deactivated account (spec section 8), matched exactly. */
export const ACCOUNT_DISABLED_MESSAGE = 'Usuario desativado.';

type MessageKey = keyof typeof MESSAGES;
const KEY_BY_MESSAGE = new Map<string, MessageKey>(
  (Object.entries(MESSAGES) as [MessageKey, string][]).map(([key, message]) => [message, key]),
);

/**
 * The shared zod schemas carry the spec's Portuguese messages; each has a translation under
 * `validation.<key>`. Unknown messages are shown as they are.
 */
export function translateValidation(t: TFunction, message: string | undefined): string | undefined {
  if (!message) return undefined;
  const key = KEY_BY_MESSAGE.get(message);
  return key ? t(`validation.${key}`) : message;
}

/** Codes whose translation (under `errors.codes.<CODE>`) is shown instead of the server's message. */
function byCode(t: TFunction, err: ApiError): string | undefined {
  if (!err.code) return undefined;
  if (err.code === 'RATE_LIMITED') {
    const seconds = Number(err.details?.retryAfterSeconds);
    return seconds > 0
      ? t('errors.codes.RATE_LIMITED', { minutes: Math.max(1, Math.ceil(seconds / 60)) })
      : t('errors.tooManyRequests');
  }
  // The error's details are the text's parameters (e.g. `PERIOD_TOO_LONG`'s `{maxDays}`).
  const text = t(`errors.codes.${err.code}`, { ...err.details, defaultValue: '' });
  return text || undefined;
}

/** An API error in the user's language: the translation of its code, else of its message, else the message. */
export function translateApiError(t: TFunction, err: unknown, fallbackKey: string): string {
  if (!isApiError(err)) return t(fallbackKey);
  if (err.status === 0) return t('errors.network');
  const translated = byCode(t, err);
  if (translated) return translated;
  if (KEY_BY_MESSAGE.has(err.message)) return translateValidation(t, err.message) ?? t(fallbackKey);
  if (err.status >= 500 || !err.message) return t(fallbackKey);
  return err.message;
}

/**
 * Code request failure (spec section 8): a deactivated account shows "Esta conta não está ativa.";
 * a rate limit or a mail failure says so (translated); anything else is the translated
 * invalid-email message.
 */
export function requestCodeError(t: TFunction, err: unknown): string {
  if (isApiError(err)) {
    if (err.message === ACCOUNT_DISABLED_MESSAGE) return t('errors.accountInactive');
    if (err.status === 0) return t('errors.network');
    if (err.status === 429 || err.code === 'MAIL_FAILED') return translateApiError(t, err, 'errors.tooManyRequests');
  }
  return t('errors.invalidEmail');
}

/** Sign-in failure: an invalid code is the translated invalid-code message (spec section 8). */
export function loginError(t: TFunction, err: unknown): string {
  if (isApiError(err) && err.code === 'INVALID_CODE') return t('errors.invalidCode');
  return translateApiError(t, err, 'errors.invalidCode');
}
