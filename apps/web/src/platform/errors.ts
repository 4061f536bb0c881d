import { errorTranslationKey, formatBRL, MESSAGES, validationKeyOf } from '@ecoa/shared';
import i18next, { type TFunction } from 'i18next';
import { isApiError } from './api';
import { intlLocale } from './i18n';

/**
 * The web app's one error translator: what the user reads for any failure is the translation of
 * `errors.codes.<CODE>` (the server's catalogue, `ERRORS` in @ecoa/shared) with the error's
 * `details` as its parameters, else a translated generic text by status. The server's own
 * `message` (Portuguese, or a library's English) never reaches the screen and is never read:
 * a validation refusal names its rule in `details.messageKey`. `test/error-codes.test.ts` fails
 * when a catalogued code has no translation in pt, en and cn.
 */

/**
 * The translation of one of the spec's validation messages by its key (`validation.<key>`); ''
 * for any other key (the server's own checks read as the generic invalid-request text).
 */
export function validationText(t: TFunction, key: string | undefined): string {
  return key && Object.hasOwn(MESSAGES, key) ? t(`validation.${key}`) : '';
}

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

/**
 * What the user reads when the server refuses a request by its shared schema (`errorText` of the
 * VALIDATION_FAILED it answers), for a form that checks that schema before sending: the rule's
 * translation when `message` (the first issue's) is one of the spec's, else the generic text.
 */
export function schemaRefusalText(t: TFunction, message: string | undefined): string {
  return validationText(t, validationKeyOf(message)) || codeText(t, 'VALIDATION_FAILED');
}

/** The first message of a react-hook-form `errors` tree (a resolver's first issue), if any. */
export function firstErrorMessage(errors: unknown): string | undefined {
  if (!errors || typeof errors !== 'object') return undefined;
  const { message } = errors as { message?: unknown };
  if (typeof message === 'string') return message;
  for (const [key, value] of Object.entries(errors)) {
    if (key === 'ref') continue;
    const found = firstErrorMessage(value);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The translation of a code (`errors.codes.<CODE>`), with `details` as its parameters; '' when none. */
export function codeText(t: TFunction, code: string | undefined, details?: unknown): string {
  if (!code) return '';
  const params = details && typeof details === 'object' ? (details as Record<string, unknown>) : {};
  return t(errorTranslationKey(code), { ...params, defaultValue: '' }) || '';
}

const GENERIC = 'errors.generic';

/** A failure with no translated code, by its HTTP status; `fallbackKey` says what was being done. */
function statusText(t: TFunction, status: number, fallbackKey: string): string {
  if (status === 0) return t('errors.network');
  if (status === 401) return t('errors.loginExpired');
  if (status === 429) return t('errors.tooManyRequests');
  // A server fault says nothing the user can act on: what was being done, when the feature says it.
  if (status >= 500) return t(fallbackKey === GENERIC ? 'errors.server' : fallbackKey);
  return t(fallbackKey);
}

/**
 * Any error in the user's language. `fallbackKey` is the feature's own generic text ("could not
 * save the link"), shown for a failure the catalogue has no code for.
 */
export function errorText(err: unknown, t: TFunction, fallbackKey = GENERIC): string {
  if (!isApiError(err)) return t(fallbackKey);
  if (err.status === 0) return t('errors.network');
  if (err.code === 'RATE_LIMITED') {
    const seconds = Number(err.details?.retryAfterSeconds);
    return seconds > 0
      ? t('errors.codes.RATE_LIMITED', { minutes: Math.max(1, Math.ceil(seconds / 60)) })
      : t('errors.tooManyRequests');
  }
  // A schema's refusal names the field's own rule when it is one of the spec's messages.
  if (err.code === 'VALIDATION_FAILED') {
    const key = err.details?.messageKey;
    return validationText(t, typeof key === 'string' ? key : undefined) || codeText(t, err.code);
  }
  // An adjustment's `available` is centavos for the balance (BALANCE), a count for credits.
  if (err.code === 'ADJUSTMENT_BELOW_ZERO' && typeof err.details?.available === 'number') {
    const { available, type } = err.details;
    return codeText(t, err.code, {
      available:
        type === 'BALANCE'
          ? formatBRL(available)
          : new Intl.NumberFormat(intlLocale(i18next.language)).format(available),
    });
  }
  // INTERNAL is the server's "something broke": no more to say than its status.
  if (err.code === 'INTERNAL') return statusText(t, err.status, fallbackKey);
  return codeText(t, err.code, err.details) || statusText(t, err.status, fallbackKey);
}
