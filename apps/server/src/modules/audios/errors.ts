import { AUDIO_ERRORS, type AudioErrorCode } from '@ecoa/shared';
import { AppError } from '../../platform/errors/app-error.ts';

/** An audio error with its catalogued status and Portuguese message (`AUDIO_ERRORS` in @ecoa/shared). */
export function audioError(code: AudioErrorCode, details?: unknown): AppError {
  const { status, message } = AUDIO_ERRORS[code];
  return new AppError(code, status, message, details);
}
