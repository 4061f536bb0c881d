import type { ContactList } from '@ecoa/shared';
import { ActionIcon, Group, Paper, Stack, Table, Tabs, Text, Tooltip } from '@mantine/core';
import { IconAddressBook, IconDownload, IconPencil, IconTrash, IconUsersGroup } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../platform/notify';
import { usePaging } from '../../platform/usePagedSearch';
import { AddButton } from '../../ui/AddButton';
import { useDeleteDialog } from '../../ui/ConfirmDialog';
import { DataTable, TablePagination } from '../../ui/DataTable';
import { EmptyState } from '../../ui/EmptyState';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { PageHeader } from '../../ui/PageHeader';
import { useRenameDialog } from '../../ui/RenameDialog';
import { RowMenu } from '../../ui/RowMenu';
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
  const ready = list.status === 'ready';

  const download = async (kind: 'valid' | 'invalid') => {
    try {
      await listsApi.download(list.id, kind);
    } catch (err) {
      notify.error(listErrorText(t, err));
    }
  };

  const errorText = (err: unknown) => listErrorText(t, err);
  const rename = useRenameDialog<ContactList>({
    ns: 'lists',
    maxLength: 120,
    rename: (item, name) => listsApi.rename(item.id, name),
    errorText,
    invalidate: listsKeys.all,
  });
  const deletion = useDeleteDialog<ContactList>({
    ns: 'lists',
    title: (item) => t(item.status === 'importing' ? 'lists.delete.cancelTitle' : 'lists.delete.title'),
    remove: (item) => listsApi.remove(item.id),
    errorText,
    invalidate: listsKeys.all,
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
      <RowMenu
        label={t('lists.actions.more')}
        testId="list-menu"
        actions={[
          {
            icon: IconAddressBook,
            label: t('lists.actions.viewContacts'),
            onClick: () => onView(list),
            testId: 'action-view',
            disabled: !ready,
          },
          {
            icon: IconDownload,
            label: t('lists.actions.downloadValid'),
            onClick: () => download('valid'),
            disabled: !ready,
          },
          {
            icon: IconDownload,
            label: t('lists.actions.downloadInvalid'),
            onClick: () => download('invalid'),
            disabled: !ready || list.invalid === 0,
          },
          { icon: IconPencil, label: t('lists.actions.rename'), onClick: () => rename(list), testId: 'action-rename' },
          {
            icon: IconTrash,
            label: t(list.status === 'importing' ? 'lists.actions.cancelImport' : 'lists.actions.delete'),
            onClick: () => deletion.ask(list),
            testId: 'action-delete',
            disabled: deletion.pending,
            danger: true,
          },
        ]}
      />
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
  const { page } = paging;
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
    return <LoadErrorAlert query={query} fallbackKey="loadError.lists" data-testid="lists-error" />;
  }
  if (data && data.total === 0) {
    return (
      <EmptyState
        icon={<IconUsersGroup size={28} />}
        title={t('lists.empty.title')}
        body={t('lists.empty.body')}
        action={<AddButton onClick={onImport}>{t('lists.importButton')}</AddButton>}
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
            <AddButton onClick={() => setImporting(true)} data-testid="import-open">
              {t('lists.importButton')}
            </AddButton>
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
