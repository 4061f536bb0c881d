import type { TFunction } from 'i18next';
import { isApiError } from '../../platform/api';
import { errorText } from '../../platform/errors';
import { formatDuration } from './format';

/**
 * An audio request's failure in the user's language, through the one catalogue; a refusal for
 * length says how long the file is.
 */
export function audioErrorText(t: TFunction, err: unknown): string {
  if (isApiError(err) && err.code === 'AUDIO_TOO_LONG' && typeof err.details?.durationSeconds === 'number') {
    return t('audios.errors.tooLong', { duration: formatDuration(err.details.durationSeconds) });
  }
  return errorText(err, t, 'audios.errors.generic');
}
