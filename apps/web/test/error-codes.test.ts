import { describe, expect, it } from 'vitest';
import cn from '../public/locales/cn.json';
import en from '../public/locales/en.json';
import pt from '../public/locales/pt.json';
import { serverErrorCodes } from './server-error-codes';

const LOCALES = { pt, en, cn } as const;

describe('every error code the server can send has a translation', () => {
  const codes = serverErrorCodes();

  it('finds the codes, also those built from constants and catalogues', () => {
    // A direct AppError, a factory, a module helper, `code:` answers, FILE_ERRORS' and AUDIO_ERRORS' keys.
    for (const code of ['ENRICHMENT_FORBIDDEN', 'LINK_SLUG_TAKEN', 'CAMPAIGN_NOT_PAUSED', 'VALIDATION_FAILED'])
      expect(codes.has(code), code).toBe(true);
    for (const code of ['CSV_RAGGED', 'LEGACY_XLS', 'AUDIO_RANGE_NOT_SATISFIABLE', 'INVALID_QUANTITY', 'BAD_REQUEST'])
      expect(codes.has(code), code).toBe(true);
    expect(codes.size).toBeGreaterThan(80);
  });

  for (const [language, texts] of Object.entries(LOCALES)) {
    it(`${language}: errors.codes.<CODE> exists for each`, () => {
      const catalogue = (texts.errors as { codes: Record<string, string> }).codes;
      const missing = [...codes]
        .filter(([code]) => !catalogue[code]?.trim())
        .map(([code, where]) => `${code} (${where[0]})`);
      expect(missing).toEqual([]);
    });
  }
});
