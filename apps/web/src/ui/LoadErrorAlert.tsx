import { Alert, type AlertProps, Button, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../platform/errors';

type LoadErrorAlertProps = Omit<AlertProps, 'children' | 'color' | 'variant' | 'icon'> & {
  /** The failed query's error: its translated message is shown, else `fallbackKey`'s text. */
  error: unknown;
  /** What could not be loaded ("Não foi possível carregar …"); by default the generic load-failed text. */
  fallbackKey?: string;
  onRetry: () => void;
  'data-testid'?: string;
};

/**
 * "Could not load" with the reason and a "Try again" button: the error state of every query. A
 * page shows it in place of what failed to load, never beside an empty state or a zero.
 */
export function LoadErrorAlert({
  error,
  fallbackKey = 'loadError.generic',
  onRetry,
  ...alertProps
}: LoadErrorAlertProps) {
  const { t } = useTranslation();
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert" {...alertProps}>
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{errorText(error, t, fallbackKey)}</Text>
        <Button size="xs" variant="light" color="red" onClick={onRetry} data-testid="load-error-retry">
          {t('loadError.retry')}
        </Button>
      </Stack>
    </Alert>
  );
}

/** The part of a react-query result the alert reads. */
type FailedQuery = { isError: boolean; error: unknown; refetch: () => unknown };

/** `LoadErrorAlert` for one query: shown only while it has failed, "Try again" fetches it again. */
export function QueryErrorAlert({
  query,
  ...alertProps
}: Omit<LoadErrorAlertProps, 'error' | 'onRetry'> & { query: FailedQuery }) {
  if (!query.isError) return null;
  return <LoadErrorAlert error={query.error} onRetry={() => void query.refetch()} {...alertProps} />;
}
