import type { TFunction } from 'i18next';
import { translateApiError } from '../auth/errors';

/** An audio request's failure in the user's language: `errors.codes.<CODE>` (AUDIO_*, TEXT_…), else generic. */
export function audioErrorText(t: TFunction, err: unknown): string {
  return translateApiError(t, err, 'audios.errors.generic');
}
