import i18next, { type TFunction } from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import cn from '../../public/locales/cn.json';
import en from '../../public/locales/en.json';
import pt from '../../public/locales/pt.json';
import { jsonAnswer, realApi, useRealApi } from '../../test/real-api.test-support';
import { api } from './api';
import { downloadFile } from './download';
import { errorText } from './errors';

const texts: Record<string, TFunction> = {};
beforeAll(async () => {
  for (const lng of ['pt', 'en', 'cn']) {
    const i18n = i18next.createInstance();
    await i18n.init({
      lng,
      resources: { pt: { translation: pt }, en: { translation: en }, cn: { translation: cn } },
      interpolation: { escapeValue: false },
    });
    texts[lng] = i18n.t;
  }
});
afterEach(() => vi.unstubAllGlobals());

/** What the real API client throws for a request. */
async function failure(request: () => Promise<unknown>): Promise<unknown> {
  return request().then(
    () => expect.unreachable('the request should fail'),
    (err: unknown) => err,
  );
}

describe('every error the web shows is translated from its code', () => {
  it("en and cn users read the server's refusal in their language, never its Portuguese", async () => {
    useRealApi(realApi().userToken);
    const err = await failure(() => api.patch('/api/v1/lists/00000000-0000-4000-8000-00000000dead', { name: 'x' }));
    expect((err as Error).message).toBe('Lista não encontrada.');
    expect(errorText(err, texts.en!)).toBe('List not found.');
    expect(errorText(err, texts.cn!)).toBe(cn.errors.codes.LIST_NOT_FOUND);
    expect(errorText(err, texts.pt!)).toBe('Lista não encontrada.');
  });

  it('a schema\'s default English (zod\'s "Invalid URL") never reaches a pt user', async () => {
    useRealApi(realApi().userToken);
    const err = await failure(() =>
      api.post('/api/v1/channels/test-send', {
        channel: 'ura',
        to: '11987654321',
        tts: 'Olá',
        integrationUrl: 'not a url',
      }),
    );
    expect((err as Error).message).toMatch(/Invalid URL/);
    const shown = errorText(err, texts.pt!);
    expect(shown).not.toMatch(/invalid|Invalid/);
    expect(shown).toBe(pt.errors.codes.VALIDATION_FAILED);
  });

  it('a network failure is translated (pt, en, cn), not "Network error"', async () => {
    useRealApi(realApi().userToken, () => Promise.reject(new TypeError('fetch failed')));
    const err = await failure(() => api.get('/api/v1/lists'));
    expect(errorText(err, texts.pt!)).toBe(pt.errors.network);
    expect(errorText(err, texts.en!)).toBe(en.errors.network);
    expect(errorText(err, texts.cn!)).toBe(cn.errors.network);
  });

  it('a download that gets no answer says so too (translated), not a generic failure', async () => {
    useRealApi(realApi().userToken, () => Promise.reject(new TypeError('fetch failed')));
    const err = await failure(() => downloadFile('/api/v1/lists/x/export', {}, 'x.csv'));
    expect(errorText(err, texts.en!, 'lists.errors.generic')).toBe(en.errors.network);
  });

  it("a code with no translation shows a translated text by status, never the server's message", async () => {
    useRealApi(realApi().userToken, () => jsonAnswer(409, { code: 'SOMETHING_NEW', message: 'Mensagem crua.' }));
    const conflict = await failure(() => api.get('/api/v1/lists'));
    expect(errorText(conflict, texts.en!)).toBe(en.errors.generic);
    expect(errorText(conflict, texts.en!, 'lists.errors.generic')).toBe(en.lists.errors.generic);
    useRealApi(realApi().userToken, () => jsonAnswer(502, { message: 'Bad gateway' }));
    const down = await failure(() => api.get('/api/v1/lists'));
    expect(errorText(down, texts.cn!)).toBe(cn.errors.server);
  });
});
