import fs from 'node:fs';
import path from 'node:path';
import { AUDIO_ERROR_CODES, ERRORS } from '@ecoa/shared';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors/app-error.ts';
import { WEB_LOCALES_DIR } from '../../platform/paths.ts';

describe('audio errors', () => {
  it('every code has its text in the web app’s three languages', () => {
    for (const lng of ['pt', 'en', 'cn']) {
      const texts = JSON.parse(fs.readFileSync(path.join(WEB_LOCALES_DIR, `${lng}.json`), 'utf8')).errors.codes;
      for (const code of AUDIO_ERROR_CODES) expect(texts[code], `${lng}: errors.codes.${code}`).toMatch(/\S/);
    }
  });

  it('carry their catalogued status and message', () => {
    expect(new AppError('AUDIO_TOO_LARGE')).toMatchObject({ status: 413, message: ERRORS.AUDIO_TOO_LARGE.message });
    expect(new AppError('AUDIO_TYPE_NOT_ALLOWED').status).toBe(415);
    expect(new AppError('AUDIO_IN_USE').status).toBe(409);
    expect(new AppError('AUDIO_LINK_EXPIRED').status).toBe(401);
  });
});
