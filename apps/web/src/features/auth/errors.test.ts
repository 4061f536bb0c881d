import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../platform/api';
import { errorText, translateValidation } from '../../platform/errors';
import { loginError, requestCodeError } from './errors';

const KNOWN = new Set([
  'errors.codes.RATE_LIMITED',
  'errors.codes.CODE_EXPIRED',
  'errors.codes.MAIL_FAILED',
  'errors.codes.VALIDATION_FAILED',
  'errors.codes.USER_DEACTIVATED',
  'errors.codes.INVALID_CODE',
]);
// A stand-in for i18next: returns the key, or '' for a defaultValue lookup of an unknown key.
const t = ((key: string, options?: { defaultValue?: string; minutes?: number }) => {
  if (options && 'defaultValue' in options && !KNOWN.has(key)) return options.defaultValue;
  return options?.minutes ? `${key}(${options.minutes})` : key;
}) as unknown as TFunction;

describe('auth error messages (spec section 8)', () => {
  it('a deactivated account shows "Esta conta não está ativa." (translated)', () => {
    // Its code's text, "Esta conta não está ativa." in pt (test/texts.test.ts: the words it showed before).
    expect(requestCodeError(t, new ApiError(403, 'Usuario desativado.', 'USER_DEACTIVATED'))).toBe(
      'errors.codes.USER_DEACTIVATED',
    );
    // Known by its code, never by its words.
    expect(requestCodeError(t, new ApiError(403, 'Usuario desativado.', 'FORBIDDEN'))).toBe('errors.invalidEmail');
  });

  it('an unknown e-mail or any other failure shows the invalid-email message', () => {
    expect(requestCodeError(t, new ApiError(404, 'E-mail não encontrado', 'EMAIL_NOT_FOUND'))).toBe(
      'errors.invalidEmail',
    );
    expect(requestCodeError(t, new ApiError(500, 'Internal'))).toBe('errors.invalidEmail');
  });

  it('a rate limit is translated with the minutes to wait; a mail failure says so', () => {
    const limited = new ApiError(429, 'Muitas solicitações.', 'RATE_LIMITED', { retryAfterSeconds: 900 });
    expect(requestCodeError(t, limited)).toBe('errors.codes.RATE_LIMITED(15)');
    expect(requestCodeError(t, new ApiError(429, 'Muitas solicitações.', 'RATE_LIMITED'))).toBe(
      'errors.tooManyRequests',
    );
    expect(requestCodeError(t, new ApiError(429, 'Aguarde 15 minutos.', 'OTHER'))).toBe('errors.tooManyRequests');
    expect(requestCodeError(t, new ApiError(503, 'Falha no e-mail', 'MAIL_FAILED'))).toBe('errors.codes.MAIL_FAILED');
  });

  it('an invalid code is the translated invalid-code message; other code failures by their code', () => {
    expect(loginError(t, new ApiError(400, 'Código inválido', 'INVALID_CODE'))).toBe('errors.codes.INVALID_CODE');
    expect(loginError(t, new ApiError(400, 'x'))).toBe('errors.invalidCode');
    expect(loginError(t, new ApiError(400, 'Código expirado', 'CODE_EXPIRED'))).toBe('errors.codes.CODE_EXPIRED');
  });

  it("sign-up failures show their code's translation, else the default, never the server's own words", () => {
    expect(errorText(new ApiError(409, 'E-mail já cadastrado.', 'X'), t, 'errors.signupFailed')).toBe(
      'errors.signupFailed',
    );
    expect(errorText(new ApiError(500, ''), t, 'errors.signupFailed')).toBe('errors.signupFailed');
    expect(errorText(new Error('boom'), t, 'errors.signupFailed')).toBe('errors.signupFailed');
  });

  it('the shared schema messages are translated by key', () => {
    expect(translateValidation(t, '* CNPJ deve conter 14 dígitos')).toBe('validation.cnpjLength');
    expect(
      errorText(new ApiError(400, '* CNPJ inválido', 'VALIDATION_FAILED', { messageKey: 'cnpjInvalid' }), t, 'x'),
    ).toBe('validation.cnpjInvalid');
    // The server names the rule by its key; its Portuguese words are never read.
    expect(errorText(new ApiError(400, '* CNPJ inválido', 'VALIDATION_FAILED'), t, 'x')).toBe(
      'errors.codes.VALIDATION_FAILED',
    );
    // A library's default (zod's English) is never shown as it is.
    expect(translateValidation(t, 'Invalid input')).toBe('validation.invalid');
    expect(translateValidation(t, undefined)).toBeUndefined();
  });
});

describe("an error's details are its translation's parameters", () => {
  it('PERIOD_TOO_LONG says the limit the server sent, in every language', async () => {
    const { default: i18next } = await import('i18next');
    const resources = {
      pt: { translation: (await import('../../../public/locales/pt.json')).default },
      en: { translation: (await import('../../../public/locales/en.json')).default },
      cn: { translation: (await import('../../../public/locales/cn.json')).default },
    };
    const err = new ApiError(400, 'O período pode ter no máximo 92 dias.', 'PERIOD_TOO_LONG', { maxDays: 92 });
    for (const lng of ['pt', 'en', 'cn']) {
      const i18n = i18next.createInstance();
      await i18n.init({ lng, resources, interpolation: { escapeValue: false } });
      const text = errorText(err, i18n.t, 'links.errors.UNKNOWN');
      expect(text).toContain('92');
      expect(text).not.toContain('{{');
      expect(text).toBe(i18n.t('errors.codes.PERIOD_TOO_LONG', { maxDays: 92 }));
    }
  });
});
