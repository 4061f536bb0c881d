import { Alert } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../platform/api';
import { errorText } from '../../platform/errors';

/**
 * Why a message was not sent: which credits to buy when the balance was short, else the reason
 * translated (`fallbackKey` when the error names none); nothing while there is no error.
 */
export function SendErrorAlert({
  error,
  creditType,
  fallbackKey,
  'data-testid': testId,
}: {
  error: unknown;
  /** The credit type the message spends (`credits.types.*`). */
  creditType: string;
  fallbackKey: string;
  'data-testid': string;
}) {
  const { t } = useTranslation();
  if (!error) return null;
  return (
    <Alert color="red" variant="light" data-testid={testId}>
      {isApiError(error) && error.code === 'INSUFFICIENT_BALANCE'
        ? t('channels.testSend.noCredits', { type: t(`credits.types.${creditType}`) })
        : errorText(error, t, fallbackKey)}
    </Alert>
  );
}
