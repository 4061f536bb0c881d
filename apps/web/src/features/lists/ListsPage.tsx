import type { ContactList } from '@ecoa/shared';
import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Center,
  Group,
  Menu,
  Pagination,
  Paper,
  Progress,
  Stack,
  Table,
  Tabs,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import {
  IconAddressBook,
  IconDots,
  IconDownload,
  IconPencil,
  IconPlus,
  IconTrash,
  IconUsersGroup,
} from '@tabler/icons-react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { intlLocale } from '../../platform/i18n';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { openTextPrompt } from '../../ui/TextPrompt';
import { notify } from '../auth/notify';
import { ContactsModal } from './ContactsModal';
import { listErrorText } from './errors';
import { ImportListModal } from './ImportListModal';
import { listsApi } from './listsApi';
import { OptOutsPanel } from './OptOutsPanel';

const PAGE_SIZE = 20;

function useLocale() {
  const { i18n } = useTranslation();
  return intlLocale(i18n.language);
}

function useNumber() {
  const locale = useLocale();
  return (n: number) => n.toLocaleString(locale);
}

function StatusCell({ list }: { list: ContactList }) {
  const { t } = useTranslation();
  const fmt = useNumber();
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
    <Badge color="teal" variant="light" style={{ overflow: 'visible' }} data-testid="list-ready">
      {t('lists.status.ready')}
    </Badge>
  );
}

function ListRow({ list, onView }: { list: ContactList; onView: (list: ContactList) => void }) {
  const { t } = useTranslation();
  const fmt = useNumber();
  const locale = useLocale();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['lists'] });
  const ready = list.status === 'ready';

  const download = async (kind: 'valid' | 'invalid') => {
    try {
      await listsApi.download(list.id, kind);
    } catch (err) {
      notify.error(listErrorText(t, err));
    }
  };

  const rename = () =>
    openTextPrompt({
      title: t('lists.rename.title'),
      initial: list.name,
      maxLength: 120,
      confirmLabel: t('lists.rename.confirm'),
      cancelLabel: t('lists.cancel'),
      inputTestId: 'rename-input',
      confirmTestId: 'confirm-rename',
      submit: async (value) => {
        await listsApi.rename(list.id, value);
        await refresh();
      },
      errorText: (err) => listErrorText(t, err),
    });

  const remove = () =>
    modals.openConfirmModal({
      title: t(list.status === 'importing' ? 'lists.delete.cancelTitle' : 'lists.delete.title'),
      children: <Text size="sm">{t('lists.delete.body', { name: list.name })}</Text>,
      labels: { confirm: t('lists.delete.confirm'), cancel: t('lists.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'confirm-delete' } as never,
      onConfirm: async () => {
        try {
          await listsApi.remove(list.id);
          notify.success(t('lists.delete.done'));
          await refresh();
        } catch (err) {
          notify.error(listErrorText(t, err));
        }
      },
    });

  const counts = (n: number) => (ready ? fmt(n) : '—');
  return (
    <Table.Tr data-testid={`list-row-${list.id}`}>
      <Table.Td>
        {ready ? (
          <Anchor component="button" fw={600} size="sm" onClick={() => onView(list)} data-testid="list-name">
            {list.name}
          </Anchor>
        ) : (
          <Text fw={600} size="sm">
            {list.name}
          </Text>
        )}
        <Text size="xs" c="dimmed">
          {list.fileName} · {new Date(list.createdAt).toLocaleDateString(locale)}
        </Text>
      </Table.Td>
      <Table.Td>
        <StatusCell list={list} />
      </Table.Td>
      <Table.Td ta="right" data-testid="count-total">
        {counts(list.total)}
      </Table.Td>
      <Table.Td ta="right" data-testid="count-valid">
        {counts(list.valid)}
        {ready && (
          <Text size="xs" c="dimmed">
            {t('lists.split', { mobiles: fmt(list.mobiles), landlines: fmt(list.landlines) })}
          </Text>
        )}
      </Table.Td>
      <Table.Td ta="right" data-testid="count-invalid">
        {counts(list.invalid)}
      </Table.Td>
      <Table.Td ta="right" data-testid="count-duplicates">
        {counts(list.duplicates)}
      </Table.Td>
      <Table.Td ta="right" data-testid="count-opted-out">
        {counts(list.optedOut)}
      </Table.Td>
      <Table.Td>
        <Group gap={4} wrap="nowrap" justify="flex-end">
          <Tooltip label={t('lists.actions.downloadInvalid')} disabled={!ready || list.invalid === 0}>
            <ActionIcon
              variant="subtle"
              disabled={!ready || list.invalid === 0}
              onClick={() => download('invalid')}
              aria-label={t('lists.actions.downloadInvalid')}
              data-testid="download-invalid"
            >
              <IconDownload size={18} />
            </ActionIcon>
          </Tooltip>
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon variant="subtle" aria-label={t('lists.actions.more')} data-testid="list-menu">
                <IconDots size={18} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item
                leftSection={<IconAddressBook size={16} />}
                disabled={!ready}
                onClick={() => onView(list)}
                data-testid="action-view"
              >
                {t('lists.actions.viewContacts')}
              </Menu.Item>
              <Menu.Item leftSection={<IconDownload size={16} />} disabled={!ready} onClick={() => download('valid')}>
                {t('lists.actions.downloadValid')}
              </Menu.Item>
              <Menu.Item
                leftSection={<IconDownload size={16} />}
                disabled={!ready || list.invalid === 0}
                onClick={() => download('invalid')}
              >
                {t('lists.actions.downloadInvalid')}
              </Menu.Item>
              <Menu.Item leftSection={<IconPencil size={16} />} onClick={rename} data-testid="action-rename">
                {t('lists.actions.rename')}
              </Menu.Item>
              <Menu.Divider />
              <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={remove} data-testid="action-delete">
                {t(list.status === 'importing' ? 'lists.actions.cancelImport' : 'lists.actions.delete')}
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

function ListsTable({ onImport }: { onImport: () => void }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [viewing, setViewing] = useState<ContactList | null>(null);
  const query = useQuery({
    queryKey: ['lists', page],
    queryFn: () => listsApi.list(page, PAGE_SIZE),
    placeholderData: keepPreviousData,
    // Progress survives a reload because it lives on the server: poll while anything imports.
    refetchInterval: (q) => (q.state.data?.items.some((l) => l.status === 'importing') ? 1000 : false),
  });
  const data = query.data;
  if (query.isError) {
    return (
      <LoadErrorAlert
        error={query.error}
        fallbackKey="loadError.lists"
        onRetry={() => void query.refetch()}
        data-testid="lists-error"
      />
    );
  }
  if (data && data.total === 0) {
    return (
      <Center py={60}>
        <Stack align="center" gap="xs" maw={460} ta="center">
          <IconUsersGroup size={48} stroke={1.3} />
          <Text fw={600}>{t('lists.empty.title')}</Text>
          <Text size="sm" c="dimmed">
            {t('lists.empty.body')}
          </Text>
          <Button leftSection={<IconPlus size={16} />} onClick={onImport} mt="sm">
            {t('lists.importButton')}
          </Button>
        </Stack>
      </Center>
    );
  }
  return (
    <Stack gap="md">
      <Paper withBorder radius="md">
        <Table.ScrollContainer minWidth={860}>
          <Table verticalSpacing="sm" highlightOnHover data-testid="lists-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('lists.columns.name')}</Table.Th>
                {/* Wide enough for "Pronta"/"Importando" whole (a badge truncates when squeezed). */}
                <Table.Th miw={120}>{t('lists.columns.status')}</Table.Th>
                <Table.Th ta="right">{t('lists.columns.total')}</Table.Th>
                <Table.Th ta="right">{t('lists.columns.valid')}</Table.Th>
                <Table.Th ta="right">{t('lists.columns.invalid')}</Table.Th>
                <Table.Th ta="right">{t('lists.columns.duplicates')}</Table.Th>
                <Table.Th ta="right">{t('lists.columns.optedOut')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data?.items.map((list) => (
                <ListRow key={list.id} list={list} onView={setViewing} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
      {data && data.total > PAGE_SIZE && (
        <Group justify="flex-end">
          <Pagination total={Math.ceil(data.total / PAGE_SIZE)} value={page} onChange={setPage} />
        </Group>
      )}
      <ContactsModal list={viewing} onClose={() => setViewing(null)} />
    </Stack>
  );
}

/** `/listas`: contact lists (import, progress, counts, exports) and the account's opt-outs. */
export function ListsPage() {
  const { t } = useTranslation();
  const [importing, setImporting] = useState(false);
  const [tab, setTab] = useState<string | null>('lists');
  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={2}>{t('nav.lists')}</Title>
        {tab === 'lists' && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setImporting(true)} data-testid="import-open">
            {t('lists.importButton')}
          </Button>
        )}
      </Group>
      <Tabs value={tab} onChange={setTab}>
        <Tabs.List>
          <Tabs.Tab value="lists">{t('lists.tabs.lists')}</Tabs.Tab>
          <Tabs.Tab value="optOuts" data-testid="tab-opt-outs">
            {t('lists.tabs.optOuts')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="lists" pt="md">
          <ListsTable onImport={() => setImporting(true)} />
        </Tabs.Panel>
        <Tabs.Panel value="optOuts" pt="md">
          <OptOutsPanel />
        </Tabs.Panel>
      </Tabs>
      <ImportListModal
        opened={importing}
        onClose={() => setImporting(false)}
        onCreated={() => notify.success(t('lists.import.started'))}
      />
    </Stack>
  );
}
