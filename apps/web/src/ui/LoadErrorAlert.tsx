import { Alert, type AlertProps, Button, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { translateApiError } from '../features/auth/errors';

type LoadErrorAlertProps = Omit<AlertProps, 'children' | 'color' | 'variant' | 'icon'> & {
  /** The failed query's error: its translated message is shown, else `fallbackKey`'s text. */
  error: unknown;
  fallbackKey: string;
  onRetry: () => void;
  'data-testid'?: string;
};

/** "Could not load" with the reason and a "Try again" button: the error state of every query. */
export function LoadErrorAlert({ error, fallbackKey, onRetry, ...alertProps }: LoadErrorAlertProps) {
  const { t } = useTranslation();
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} {...alertProps}>
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{translateApiError(t, error, fallbackKey)}</Text>
        <Button size="xs" variant="light" color="red" onClick={onRetry}>
          {t('errors.retry')}
        </Button>
      </Stack>
    </Alert>
  );
}
