/**
 * The web translates every error by its code from one catalogue, `errors.codes` in each locale
 * file (apps/web/src/platform/errors.ts): a module's tests check its codes are all there.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { WEB_LOCALES_DIR } from '../src/platform/paths.ts';

export const WEB_LANGUAGES = ['pt', 'en', 'cn'] as const;

/** The web's locale file for `lng`, parsed. */
// biome-ignore lint/suspicious/noExplicitAny: a locale file is free-form JSON, read key by key in assertions.
export const webLocale = (lng: string): any =>
  JSON.parse(fs.readFileSync(path.join(WEB_LOCALES_DIR, `${lng}.json`), 'utf8'));

export function expectErrorTextsInEveryLanguage(codes: readonly string[]): void {
  for (const lng of WEB_LANGUAGES) {
    const texts = webLocale(lng).errors.codes;
    for (const code of codes) expect(texts[code], `${lng}: errors.codes.${code}`).toMatch(/\S/);
  }
}
