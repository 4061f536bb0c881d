import type { ContactList } from '@ecoa/shared';
import { ActionIcon, Button, Group, Menu, Paper, Stack, Table, Tabs, Text, Tooltip } from '@mantine/core';
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
import { notify } from '../../platform/notify';
import { usePaging } from '../../platform/usePagedSearch';
import { openDeleteDialog } from '../../ui/ConfirmDialog';
import { DataTable, TablePagination } from '../../ui/DataTable';
import { EmptyState } from '../../ui/EmptyState';
import { QueryErrorAlert } from '../../ui/LoadErrorAlert';
import { PageHeader } from '../../ui/PageHeader';
import { openRenameDialog } from '../../ui/RenameDialog';
import { usePhone } from '../../ui/usePhone';
import { ContactsModal } from './ContactsModal';
import { listErrorText } from './errors';
import { ImportListModal } from './ImportListModal';
import { ListCard } from './ListCard';
import { ListName, ListStatus, useListNumber } from './listParts';
import { listsApi } from './listsApi';
import { OptOutsPanel } from './OptOutsPanel';
import { listsKeys } from './queryKeys';

const PAGE_SIZE = 20;
/** The list's counts, in the table's right-aligned columns. */
const COUNT_COLUMNS = ['total', 'valid', 'invalid', 'duplicates', 'optedOut'] as const;

function ListRow({ list, onView, phone }: { list: ContactList; onView: (list: ContactList) => void; phone: boolean }) {
  const { t } = useTranslation();
  const fmt = useListNumber();
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
  const countCell = (testId: string, n: number) => (
    <Table.Td ta="right" data-testid={testId}>
      {counts(n)}
    </Table.Td>
  );
  const actions = (
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
  );
  if (phone) return <ListCard list={list} onView={onView} actions={actions} />;
  return (
    <Table.Tr data-testid={`list-row-${list.id}`}>
      <Table.Td>
        <ListName list={list} onView={onView} />
      </Table.Td>
      <Table.Td>
        <ListStatus list={list} />
      </Table.Td>
      {countCell('count-total', list.total)}
      <Table.Td ta="right" data-testid="count-valid">
        {counts(list.valid)}
        {ready && (
          <Text size="xs" c="dimmed">
            {t('lists.split', { mobiles: fmt(list.mobiles), landlines: fmt(list.landlines) })}
          </Text>
        )}
      </Table.Td>
      {countCell('count-invalid', list.invalid)}
      {countCell('count-duplicates', list.duplicates)}
      {countCell('count-opted-out', list.optedOut)}
      <Table.Td>{actions}</Table.Td>
    </Table.Tr>
  );
}

function ListsTable({ onImport }: { onImport: () => void }) {
  const { t } = useTranslation();
  const paging = usePaging(PAGE_SIZE);
  const { page, setPage } = paging;
  const [viewing, setViewing] = useState<ContactList | null>(null);
  const phone = usePhone();
  const query = useQuery({
    queryKey: listsKeys.page(page),
    queryFn: () => listsApi.list(page, PAGE_SIZE),
    placeholderData: keepPreviousData,
    // Progress survives a reload because it lives on the server: poll while anything imports.
    refetchInterval: (q) => (q.state.data?.items.some((l) => l.status === 'importing') ? 1000 : false),
  });
  const data = query.data;
  if (query.isError) {
    return <QueryErrorAlert query={query} fallbackKey="loadError.lists" data-testid="lists-error" />;
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
      {phone ? (
        <Stack gap="sm" data-testid="lists-cards">
          {data?.items.map((list) => (
            <ListRow key={list.id} list={list} onView={setViewing} phone />
          ))}
        </Stack>
      ) : (
        <Paper withBorder radius="md">
          <DataTable
            columns={[
              { header: t('lists.columns.name') },
              // Wide enough for "Pronta"/"Importando" whole (a badge truncates when squeezed).
              { header: t('lists.columns.status'), miw: 120 },
              ...COUNT_COLUMNS.map((key) => ({ header: t(`lists.columns.${key}`), align: 'right' as const })),
              {},
            ]}
            rows={data?.items}
            renderRow={(list) => <ListRow key={list.id} list={list} onView={setViewing} phone={false} />}
            minWidth={860}
            verticalSpacing="sm"
            highlightOnHover
            data-testid="lists-table"
          />
        </Paper>
      )}
      <TablePagination paging={paging} total={data?.total} justify="flex-end" />
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
        onCreated={() => notify.success(t('lists.import.started'))}
      />
    </Stack>
  );
}
