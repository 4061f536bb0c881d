import { MESSAGES } from '@ecoa/shared';
import type { TFunction } from 'i18next';
import { isApiError } from './api';

/**
 * The web app's one error catalogue (issue 21): what the user reads for any failure is the
 * translation of `errors.codes.<CODE>` with the error's `details` as its parameters, else a
 * translated generic text by status. The server's own `message` (Portuguese, or a library's
 * English) never reaches the screen. `test/error-codes.test.ts` fails when a code the server can
 * send has no translation in pt, en and cn.
 */

type MessageKey = keyof typeof MESSAGES;
const KEY_BY_MESSAGE = new Map<string, MessageKey>(
  (Object.entries(MESSAGES) as [MessageKey, string][]).map(([key, message]) => [message, key]),
);

/** The translation of one of the shared schemas' (spec's Portuguese) messages, if it is one. */
export function sharedMessageText(t: TFunction, message: string | undefined): string | undefined {
  const key = message ? KEY_BY_MESSAGE.get(message) : undefined;
  return key ? t(`validation.${key}`) : undefined;
}

/**
 * A form field's message in the user's language: the shared zod schemas carry the spec's
 * Portuguese messages, each translated under `validation.<key>`; any other (a library's English
 * default) is the translated generic "invalid value", never shown as it is.
 */
export function translateValidation(t: TFunction, message: string | undefined): string | undefined {
  if (!message) return undefined;
  return sharedMessageText(t, message) ?? t('validation.invalid');
}

/** The translation of a code (`errors.codes.<CODE>`), with `details` as its parameters; '' when none. */
export function codeText(t: TFunction, code: string | undefined, details?: unknown): string {
  if (!code) return '';
  const params = details && typeof details === 'object' ? (details as Record<string, unknown>) : {};
  return t(`errors.codes.${code}`, { ...params, defaultValue: '' }) || '';
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
  if (err.code === 'VALIDATION_FAILED') return sharedMessageText(t, err.message) ?? codeText(t, err.code);
  // INTERNAL is the server's "something broke": no more to say than its status.
  if (err.code === 'INTERNAL') return statusText(t, err.status, fallbackKey);
  return codeText(t, err.code, err.details) || statusText(t, err.status, fallbackKey);
}
