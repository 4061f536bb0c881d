import type { ContactList } from '@ecoa/shared';
import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Group,
  Menu,
  Pagination,
  Paper,
  Progress,
  Stack,
  Table,
  Tabs,
  Text,
  Tooltip,
} from '@mantine/core';
import {
  IconAddressBook,
  IconDots,
  IconDownload,
  IconPencil,
  IconPlus,
  IconTrash,
  IconUsersGroup,
} from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { intlLocale } from '../../platform/i18n';
import { notify } from '../../platform/notify';
import { openDeleteDialog } from '../../ui/ConfirmDialog';
import { EmptyState } from '../../ui/EmptyState';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { PageHeader } from '../../ui/PageHeader';
import { openRenameDialog } from '../../ui/RenameDialog';
import { ContactsModal } from './ContactsModal';
import { listErrorText } from './errors';
import { ImportListModal } from './ImportListModal';
import { listsApi } from './listsApi';
import { OptOutsPanel } from './OptOutsPanel';
import { listsKeys } from './queryKeys';

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
  const refresh = () => queryClient.invalidateQueries({ queryKey: listsKeys.all });
  const ready = list.status === 'ready';

  const download = async (kind: 'valid' | 'invalid') => {
    try {
      await listsApi.download(list.id, kind);
    } catch (err) {
      notify.error(listErrorText(t, err));
    }
  };

  const rename = () =>
    openRenameDialog({
      title: t('lists.rename.title'),
      name: list.name,
      maxLength: 120,
      confirmLabel: t('lists.rename.confirm'),
      cancelLabel: t('lists.cancel'),
      rename: async (value) => {
        await listsApi.rename(list.id, value);
        await refresh();
      },
      errorText: (err) => listErrorText(t, err),
    });

  const remove = () =>
    openDeleteDialog({
      title: t(list.status === 'importing' ? 'lists.delete.cancelTitle' : 'lists.delete.title'),
      body: t('lists.delete.body', { name: list.name }),
      confirmLabel: t('lists.delete.confirm'),
      cancelLabel: t('lists.cancel'),
      remove: () => listsApi.remove(list.id),
      doneText: t('lists.delete.done'),
      errorText: (err) => listErrorText(t, err),
      refresh,
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
    queryKey: listsKeys.page(page),
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
      <EmptyState
        icon={<IconUsersGroup size={28} />}
        title={t('lists.empty.title')}
        body={t('lists.empty.body')}
        action={
          <Button leftSection={<IconPlus size={16} />} onClick={onImport}>
            {t('lists.importButton')}
          </Button>
        }
      />
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
  const queryClient = useQueryClient();
  const [importing, setImporting] = useState(false);
  const [tab, setTab] = useState<string | null>('lists');
  const created = useMutation({
    mutationFn: async () => queryClient.invalidateQueries({ queryKey: listsKeys.all }),
  });
  return (
    <Stack gap="lg">
      <PageHeader
        title={t('nav.lists')}
        actions={
          tab === 'lists' && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setImporting(true)} data-testid="import-open">
              {t('lists.importButton')}
            </Button>
          )
        }
      />
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
        onCreated={() => {
          notify.success(t('lists.import.started'));
          created.mutate();
        }}
      />
    </Stack>
  );
}
