import type { TFunction } from 'i18next';
import { isApiError } from '../../platform/api';
import { errorText } from '../../platform/errors';

/**
 * A links API error in the user's language, through the one catalogue (`platform/errors.ts`); a
 * refused form says which fields a link needs (the schema's own words are never shown). Only the
 * form's save says "could not save" (`links.errors.UNKNOWN`).
 */
export function linkErrorText(t: TFunction, err: unknown, fallbackKey = 'errors.generic'): string {
  if (isApiError(err) && err.code === 'VALIDATION_FAILED') return t('links.errors.fields');
  return errorText(err, t, fallbackKey);
}
