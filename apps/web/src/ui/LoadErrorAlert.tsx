import { Alert, type AlertProps, Button, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../platform/errors';

/** The part of a react-query result the alert reads. */
type FailedQuery = { isError: boolean; error: unknown; refetch: () => unknown };

type LoadErrorAlertProps = Omit<AlertProps, 'children' | 'color' | 'variant' | 'icon'> & {
  /** What could not be loaded ("Não foi possível carregar …"); by default the generic load-failed text. */
  fallbackKey?: string;
  'data-testid'?: string;
} & (
    | {
        /** The failed query's error: its translated message is shown, else `fallbackKey`'s text. */
        error: unknown;
        onRetry: () => void;
        query?: never;
      }
    | {
        /** One query: shown only while it has failed, "Try again" fetches it again. */
        query: FailedQuery;
        error?: never;
        onRetry?: never;
      }
  );

/**
 * "Could not load" with the reason and a "Try again" button: the error state of every query. A
 * page shows it in place of what failed to load, never beside an empty state or a zero.
 */
export function LoadErrorAlert({
  error,
  fallbackKey = 'loadError.generic',
  onRetry,
  query,
  ...alertProps
}: LoadErrorAlertProps) {
  const { t } = useTranslation();
  if (query && !query.isError) return null;
  const failure = query ? query.error : error;
  const retry = query ? () => void query.refetch() : onRetry;
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert" {...alertProps}>
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{errorText(failure, t, fallbackKey)}</Text>
        <Button size="xs" variant="light" color="red" onClick={retry} data-testid="load-error-retry">
          {t('loadError.retry')}
        </Button>
      </Stack>
    </Alert>
  );
}
