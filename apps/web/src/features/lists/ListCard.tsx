import type { ContactList } from '@ecoa/shared';
import { Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LabeledValue } from '../../ui/LabeledValue';
import { ListName, ListStatus, useListNumber } from './listParts';

/** One count of a card, named as the table's column is. */

/** The list's counts, each with its column's label and its test id (the same as the table's). */
const LIST_COUNTS = [
  ['total', 'count-total'],
  ['valid', 'count-valid'],
  ['invalid', 'count-invalid'],
  ['duplicates', 'count-duplicates'],
  ['optedOut', 'count-opted-out'],
] as const;

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
          {LIST_COUNTS.map(([key, testId]) => (
            <LabeledValue
              key={key}
              label={t(`lists.columns.${key}`)}
              value={counts(list[key])}
              testId={testId}
              size="sm"
              fw={600}
            />
          ))}
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
