import type { TFunction } from 'i18next';
import { isApiError } from '../../platform/api';
import { translateApiError } from '../auth/errors';
import { formatDuration } from './format';

/**
 * An audio request's failure in the user's language: `errors.codes.<CODE>` (AUDIO_*, TEXT_…),
 * else the generic text. A refusal for length says how long the file is.
 */
export function audioErrorText(t: TFunction, err: unknown): string {
  if (isApiError(err) && err.code === 'AUDIO_TOO_LONG' && typeof err.details?.durationSeconds === 'number') {
    return t('audios.errors.tooLong', { duration: formatDuration(err.details.durationSeconds) });
  }
  return translateApiError(t, err, 'audios.errors.generic');
}
