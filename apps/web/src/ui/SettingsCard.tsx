import { Card, Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyRow } from './DataTable';
import { type ContentQuery, QueryContent } from './QueryContent';

/**
 * One card of `/configuracoes` that lists what one query reads (API keys, sessions, webhooks):
 * its icon and title, what it is for, the card's action on the right (below on a narrow screen),
 * then the list, or its loading, its load failure or its empty line. Its texts are the feature's
 * `<ns>.title`, `.intro`, `.loadFailed` and `.empty`.
 */
export function SettingsCard<T>({
  ns,
  icon,
  action,
  testId,
  query,
  isEmpty,
  children,
  dialogs,
}: {
  ns: string;
  icon: ReactNode;
  action: ReactNode;
  /** The card's name in test ids: `settings-<testId>` for the card, `<testId>-error`, `<testId>-empty`. */
  testId: string;
  query: ContentQuery<T>;
  /** When the list is empty (`<ns>.empty` is shown instead); none for a list that never is. */
  isEmpty?: (data: T) => boolean;
  children: (data: T) => ReactNode;
  /** The card's dialogs (create, show a secret, …). */
  dialogs?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="lg" padding="lg" data-testid={`settings-${testId}`}>
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" gap="sm">
          <div style={{ flex: '1 1 16rem' }}>
            <Group gap={8}>
              {icon}
              <Title order={4}>{t(`${ns}.title`)}</Title>
            </Group>
            <Text size="sm" c="dimmed" mt={4}>
              {t(`${ns}.intro`)}
            </Text>
          </div>
          {action}
        </Group>
        <QueryContent
          query={query}
          fallbackKey={`${ns}.loadFailed`}
          errorTestId={`${testId}-error`}
          isEmpty={isEmpty}
          empty={<EmptyRow data-testid={`${testId}-empty`}>{t(`${ns}.empty`)}</EmptyRow>}
        >
          {children}
        </QueryContent>
      </Stack>
      {dialogs}
    </Card>
  );
}
