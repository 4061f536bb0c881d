import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { WEB_LOCALES_DIR } from '../../../platform/paths.ts';
import { FILE_ERRORS, fileError } from './errors.ts';

describe('file errors', () => {
  it('every code has its text in the web app’s three languages', () => {
    for (const lng of ['pt', 'en', 'cn']) {
      const texts = JSON.parse(fs.readFileSync(path.join(WEB_LOCALES_DIR, `${lng}.json`), 'utf8')).lists.errors;
      for (const code of Object.keys(FILE_ERRORS)) expect(texts[code], `${lng}: lists.errors.${code}`).toMatch(/\S/);
    }
  });

  it('limit errors carry which limit and its maximum', () => {
    expect(fileError('XLSX_TOO_LARGE', { limit: 'columns', max: 16_384 })).toMatchObject({
      status: 400,
      code: 'XLSX_TOO_LARGE',
      details: { limit: 'columns', max: 16_384 },
    });
    expect(fileError('FILE_TOO_LARGE').status).toBe(413);
  });
});
