import type { ContactList } from '@ecoa/shared';
import { Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ListName, ListStatus, useListNumber } from './listParts';

/** One count of a card, named as the table's column is. */
function Count({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={600} data-testid={testId}>
        {value}
      </Text>
    </Stack>
  );
}

/**
 * On a phone, a list as a card instead of a table row: name, status and actions on top, then every
 * count the table has as a column, each with its column's name, so none is off the screen's edge.
 * The same test ids as the row's.
 */
export function ListCard({
  list,
  onView,
  actions,
}: {
  list: ContactList;
  onView: (list: ContactList) => void;
  actions: ReactNode;
}) {
  const { t } = useTranslation();
  const fmt = useListNumber();
  const ready = list.status === 'ready';
  const counts = (n: number) => (ready ? fmt(n) : '—');
  return (
    <Paper withBorder radius="md" p="sm" data-testid={`list-row-${list.id}`}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <Stack gap={0} miw={0}>
          <ListName list={list} onView={onView} />
        </Stack>
        {actions}
      </Group>
      <Stack mt="xs" gap="xs">
        <ListStatus list={list} />
        <SimpleGrid cols={3} spacing="xs" verticalSpacing="xs">
          <Count label={t('lists.columns.total')} value={counts(list.total)} testId="count-total" />
          <Count label={t('lists.columns.valid')} value={counts(list.valid)} testId="count-valid" />
          <Count label={t('lists.columns.invalid')} value={counts(list.invalid)} testId="count-invalid" />
          <Count label={t('lists.columns.duplicates')} value={counts(list.duplicates)} testId="count-duplicates" />
          <Count label={t('lists.columns.optedOut')} value={counts(list.optedOut)} testId="count-opted-out" />
        </SimpleGrid>
        {ready && (
          <Text size="xs" c="dimmed">
            {t('lists.split', { mobiles: fmt(list.mobiles), landlines: fmt(list.landlines) })}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
