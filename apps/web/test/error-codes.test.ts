import { API_ERROR_CODES, ERRORS, errorTranslationKey, MESSAGES } from '@ecoa/shared';
import { describe, expect, it } from 'vitest';
import cn from '../public/locales/cn.json';
import en from '../public/locales/en.json';
import pt from '../public/locales/pt.json';

const LOCALES = { pt, en, cn } as const;

/** A translation by its dotted key (`errors.codes.X`), or undefined. */
function lookup(texts: unknown, key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], texts);
}

describe('every error code the server can send has a translation (the catalogue, ERRORS in @ecoa/shared)', () => {
  it('lists the codes, also the families answered without an entry of their own', () => {
    // Plain codes, a campaign problem's own code, Fastify's fallback, file and audio codes.
    for (const code of ['ENRICHMENT_FORBIDDEN', 'LINK_SLUG_TAKEN', 'CAMPAIGN_NOT_PAUSED', 'VALIDATION_FAILED'])
      expect(API_ERROR_CODES, code).toContain(code);
    for (const code of ['CSV_RAGGED', 'LEGACY_XLS', 'AUDIO_RANGE_NOT_SATISFIABLE', 'INVALID_QUANTITY', 'BAD_REQUEST'])
      expect(API_ERROR_CODES, code).toContain(code);
    for (const code of ['LISTS_REQUIRED', 'TRACKED_LINK_UNUSED']) expect(API_ERROR_CODES, code).toContain(code);
    // Operators' refusals (CLIs) and the family's own entry are never an HTTP answer.
    expect(API_ERROR_CODES).not.toContain('BACKUP_INVALID');
    expect(API_ERROR_CODES).not.toContain('CAMPAIGN_PROBLEM');
    expect(API_ERROR_CODES.length).toBeGreaterThan(80);
  });

  for (const [language, texts] of Object.entries(LOCALES)) {
    it(`${language}: errors.codes.<CODE> exists for each`, () => {
      const missing = API_ERROR_CODES.filter((code) => !String(lookup(texts, errorTranslationKey(code)) ?? '').trim());
      expect(missing).toEqual([]);
    });

    it(`${language}: validation.<key> exists for each of the spec's validation messages`, () => {
      const missing = Object.keys(MESSAGES).filter((key) => !String(lookup(texts, `validation.${key}`) ?? '').trim());
      expect(missing).toEqual([]);
    });
  }

  it('a translation uses only the parameters its error sends in details', () => {
    // The web adds `minutes` to RATE_LIMITED itself (from retryAfterSeconds).
    const added: Record<string, string[]> = { RATE_LIMITED: ['minutes'] };
    const stray: string[] = [];
    for (const [code, entry] of Object.entries(ERRORS)) {
      const allowed = new Set([...('params' in entry ? entry.params : []), ...(added[code] ?? []), 'count']);
      for (const [language, texts] of Object.entries(LOCALES)) {
        const text = String(lookup(texts, errorTranslationKey(code)) ?? '');
        for (const [, name] of text.matchAll(/\{\{\s*(\w+)/g))
          if (!allowed.has(name!)) stray.push(`${language} ${code}: {{${name}}}`);
      }
    }
    expect(stray).toEqual([]);
  });
});
