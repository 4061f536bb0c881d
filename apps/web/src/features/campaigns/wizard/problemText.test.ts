import i18next from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import pt from '../../../../public/locales/pt.json';
import { realApi, useRealApi } from '../../../../test/real-api.test-support';
import { api } from '../../../platform/api';
import { wizardErrorText } from './problemText';

afterEach(() => vi.unstubAllGlobals());

describe("the wizard's errors", () => {
  it('a tracked link refused by the schema (zod\'s "Invalid URL") reaches a pt user in Portuguese', async () => {
    const i18n = i18next.createInstance();
    await i18n.init({ lng: 'pt', resources: { pt: { translation: pt } }, interpolation: { escapeValue: false } });
    useRealApi(realApi().userToken);
    const err = await api
      .post('/api/v1/campaigns', {
        name: 'Oferta',
        channel: 'sms_short',
        content: { text: 'Veja {link}', trackedLink: { url: 'não é endereço' } },
      })
      .then(
        () => expect.unreachable('the server should refuse it'),
        (e: unknown) => e,
      );
    expect((err as Error).message).toMatch(/Invalid URL/);
    expect(wizardErrorText(i18n.t, err)).toBe(pt.errors.codes.VALIDATION_FAILED);
  });
});
