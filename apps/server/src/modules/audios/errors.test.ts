import { AUDIO_ERROR_CODES, ERRORS } from '@ecoa/shared';
import { describe, expect, it } from 'vitest';
import { expectErrorTextsInEveryLanguage } from '../../../test/locales.test-support.ts';
import { AppError } from '../../platform/errors/app-error.ts';

describe('audio errors', () => {
  it('every code has its text in the web app’s three languages', () => {
    expectErrorTextsInEveryLanguage(AUDIO_ERROR_CODES);
  });

  it('carry their catalogued status and message', () => {
    expect(new AppError('AUDIO_TOO_LARGE')).toMatchObject({ status: 413, message: ERRORS.AUDIO_TOO_LARGE.message });
    expect(new AppError('AUDIO_TYPE_NOT_ALLOWED').status).toBe(415);
    expect(new AppError('AUDIO_IN_USE').status).toBe(409);
    expect(new AppError('AUDIO_LINK_EXPIRED').status).toBe(401);
  });
});
