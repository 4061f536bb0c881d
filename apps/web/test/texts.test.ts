import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import cn from '../public/locales/cn.json';
import en from '../public/locales/en.json';
import pt from '../public/locales/pt.json';

const LOCALES = { pt, en, cn } as const;
const SRC = path.resolve(__dirname, '../src');
const lookup = (texts: unknown, key: string) =>
  key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], texts);

function sources(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) sources(full, out);
    else if (/\.tsx?$/.test(entry.name) && !/\.test\./.test(entry.name)) out.push(full);
  }
  return out;
}

describe('texts', () => {
  for (const [language, texts] of Object.entries(LOCALES)) {
    it(`${language}: the rotating link has one name, the spec menu's, wherever it names the feature`, () => {
      const menu = texts.nav.rotatingLink;
      expect(texts.links.title).toBe(menu);
      expect(texts.adminLinks.tabs.rotating).toBe(menu);
      expect(texts.campaignWizard.link.rotating).toBe(menu);
    });
  }

  for (const [language, texts] of Object.entries(LOCALES)) {
    it(`${language}: where a feature's own text gave way to its code's (errorText), the words are the ones it showed`, () => {
      expect(texts.errors.codes.INVALID_CODE).toBe(texts.errors.invalidCode);
      expect(texts.errors.codes.INVALID_QUANTITY).toBe(texts.credits.invalidQuantity);
      expect(texts.errors.codes.USER_DEACTIVATED).toBe(
        { pt: 'Esta conta não está ativa.', en: 'This account is not active.', cn: '此账户未激活。' }[language],
      );
    });
  }

  it('a load error never says "could not save"', () => {
    const loadKeys = sources(SRC).flatMap((file) => {
      const source = fs.readFileSync(file, 'utf8');
      return [
        ...[...source.matchAll(/<(?:LoadErrorAlert|QueryContent)[^>]*?fallbackKey="([^"]+)"/gs)].map((m) => m[1]!),
        // A settings card's load error is its `<ns>.loadFailed`.
        ...[...source.matchAll(/<SettingsCard[^>]*?ns="([^"]+)"/gs)].map((m) => `${m[1]!}.loadFailed`),
      ];
    });
    expect(loadKeys.length).toBeGreaterThan(5);
    const saying = loadKeys.filter(
      (key) => /salvar/i.test(String(lookup(pt, key))) || /save/i.test(String(lookup(en, key))),
    );
    expect(saying).toEqual([]);
  });

  it("the spec's own texts stay exactly as it writes them", () => {
    expect(pt.auth.login.remember).toBe('Manter sessao ativa nesta conta');
    expect(pt.auth.signup.fullName).toBe('Seu Nome completo');
    expect(pt.auth.signup.email).toBe('Email');
  });
});
