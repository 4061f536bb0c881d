import type { ContactList } from '@ecoa/shared';
import { Anchor, Badge, Group, Progress, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { intlLocale } from '../../platform/i18n';
import { listErrorText } from './errors';

/** One list's pieces as the lists table and the phone's cards both show them. */

export function useListLocale() {
  const { i18n } = useTranslation();
  return intlLocale(i18n.language);
}

export function useListNumber() {
  const locale = useListLocale();
  return (n: number) => n.toLocaleString(locale);
}

/** Its name (opens its contacts once ready), its file and the day it was imported. */
export function ListName({ list, onView }: { list: ContactList; onView: (list: ContactList) => void }) {
  const locale = useListLocale();
  return (
    <>
      {list.status === 'ready' ? (
        <Anchor
          component="button"
          fw={600}
          size="sm"
          ta="left"
          style={{ overflowWrap: 'anywhere' }}
          onClick={() => onView(list)}
          data-testid="list-name"
        >
          {list.name}
        </Anchor>
      ) : (
        <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
          {list.name}
        </Text>
      )}
      <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
        {list.fileName} · {new Date(list.createdAt).toLocaleDateString(locale)}
      </Text>
    </>
  );
}

/** Ready, importing (with its progress) or failed (with the reason). */
export function ListStatus({ list }: { list: ContactList }) {
  const { t } = useTranslation();
  const fmt = useListNumber();
  if (list.status === 'importing') {
    return (
      <Stack gap={4} miw={160} data-testid="list-progress">
        <Group gap={6} justify="space-between">
          <Badge color="blue" variant="light">
            {t('lists.status.importing')}
          </Badge>
          <Text size="xs" c="dimmed">
            {list.progress}%
          </Text>
        </Group>
        <Progress value={list.progress} size="sm" animated striped />
        <Text size="xs" c="dimmed">
          {t('lists.rowsProcessed', { rows: fmt(list.rowsProcessed) })}
        </Text>
      </Stack>
    );
  }
  if (list.status === 'failed') {
    return (
      <Stack gap={4} maw={260}>
        <Badge color="red" variant="light">
          {t('lists.status.failed')}
        </Badge>
        <Text size="xs" c="red" data-testid="list-error">
          {list.errorCode ? listErrorText(t, list.errorCode, list.errorDetails) : t('lists.errors.generic')}
        </Text>
      </Stack>
    );
  }
  return (
    <Badge color="teal" variant="light" data-testid="list-ready">
      {t('lists.status.ready')}
    </Badge>
  );
}
