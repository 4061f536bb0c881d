import { type ContactList, formatBrazilianPhone, type ListContact } from '@ecoa/shared';
import { Badge, Group, Modal, ScrollArea, Stack, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { usePaging } from '../../platform/usePagedSearch';
import { type DataColumn, DataTable, TablePagination } from '../../ui/DataTable';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { listsApi } from './listsApi';
import { listsKeys } from './queryKeys';

const PAGE_SIZE = 50;

/** A ready list's contacts, by phone: number, mobile or landline, name, custom fields, opt-out mark. */
export function ContactsModal({ list, onClose }: { list: ContactList | null; onClose: () => void }) {
  const { t } = useTranslation();
  const paging = usePaging(PAGE_SIZE);
  const { page, setPage } = paging;
  const query = useQuery({
    queryKey: listsKeys.contacts(list?.id, page),
    queryFn: () => listsApi.contacts(list!.id, page, PAGE_SIZE),
    enabled: list !== null,
    placeholderData: keepPreviousData,
  });
  const data = query.data;
  const columns: DataColumn<ListContact>[] = [
    {
      header: t('lists.contacts.columns.phone'),
      cell: (c) => (
        <Group gap={6} wrap="nowrap">
          <Text size="sm" ff="monospace">
            {formatBrazilianPhone(c.phone)}
          </Text>
          {c.optedOut && (
            <Badge size="xs" color="red" variant="light">
              {t('lists.contacts.optedOut')}
            </Badge>
          )}
        </Group>
      ),
    },
    { header: t('lists.contacts.columns.kind'), cell: (c) => t(`lists.contacts.kind.${c.kind}`) },
    { header: t('lists.contacts.columns.name'), cell: (c) => c.name ?? '—' },
    {
      header: t('lists.contacts.columns.fields'),
      cell: (c) => (
        <Group gap={4}>
          {Object.entries(c.fields ?? {}).map(([k, v]) => (
            <Badge key={k} size="xs" variant="outline" tt="none">
              {k}: {v}
            </Badge>
          ))}
        </Group>
      ),
    },
    { header: t('lists.contacts.columns.row'), align: 'right', cell: (c) => c.rowNumber },
  ];
  return (
    <Modal
      opened={list !== null}
      onClose={() => {
        setPage(1);
        onClose();
      }}
      title={t('lists.contacts.title', { name: list?.name ?? '' })}
      size="xl"
    >
      <Stack gap="sm" data-testid="contacts-modal">
        <LoadErrorAlert query={query} fallbackKey="loadError.contacts" data-testid="contacts-error" />
        <ScrollArea type="auto" mah="60vh">
          <DataTable columns={columns} rows={data?.items} rowKey={(c) => c.phone} striped fz="sm" />
        </ScrollArea>
        <TablePagination paging={paging} total={data?.total} size="sm" justify="flex-end" />
      </Stack>
    </Modal>
  );
}
