import type { TFunction } from 'i18next';
import { isApiError } from '../../../platform/api';
import { codeText, errorText } from '../../../platform/errors';

/** A campaign's problem (the estimate's, or a refused save/start) in the user's language, never the server's words. */
export function problemText(t: TFunction, code: string, details?: unknown): string {
  return (
    t(`campaignWizard.problems.${code}`, { defaultValue: '' }) ||
    codeText(t, code, details) ||
    t('campaigns.errors.generic')
  );
}

/** The wizard's failed save or start, through the one catalogue (`platform/errors.ts`). */
export function wizardErrorText(t: TFunction, error: unknown): string {
  if (isApiError(error) && error.code && error.status !== 0 && error.code !== 'VALIDATION_FAILED') {
    const own = t(`campaignWizard.problems.${error.code}`, { defaultValue: '' });
    if (own) return own;
  }
  return errorText(error, t, 'campaigns.errors.generic');
}
