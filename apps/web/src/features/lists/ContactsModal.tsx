import { type ContactList, formatBrazilianPhone } from '@ecoa/shared';
import { Badge, Group, Modal, Pagination, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryErrorAlert } from '../../ui/LoadErrorAlert';
import { listsApi } from './listsApi';
import { listsKeys } from './queryKeys';

const PAGE_SIZE = 50;

/** A ready list's contacts, by phone: number, mobile or landline, name, custom fields, opt-out mark. */
export function ContactsModal({ list, onClose }: { list: ContactList | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const query = useQuery({
    queryKey: listsKeys.contacts(list?.id, page),
    queryFn: () => listsApi.contacts(list!.id, page, PAGE_SIZE),
    enabled: list !== null,
    placeholderData: keepPreviousData,
  });
  const data = query.data;
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
        <QueryErrorAlert query={query} fallbackKey="loadError.contacts" data-testid="contacts-error" />
        <ScrollArea type="auto" mah="60vh">
          <Table striped fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('lists.contacts.columns.phone')}</Table.Th>
                <Table.Th>{t('lists.contacts.columns.kind')}</Table.Th>
                <Table.Th>{t('lists.contacts.columns.name')}</Table.Th>
                <Table.Th>{t('lists.contacts.columns.fields')}</Table.Th>
                <Table.Th ta="right">{t('lists.contacts.columns.row')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data?.items.map((c) => (
                <Table.Tr key={c.phone}>
                  <Table.Td>
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
                  </Table.Td>
                  <Table.Td>{t(`lists.contacts.kind.${c.kind}`)}</Table.Td>
                  <Table.Td>{c.name ?? '—'}</Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      {Object.entries(c.fields ?? {}).map(([k, v]) => (
                        <Badge key={k} size="xs" variant="outline" tt="none">
                          {k}: {v}
                        </Badge>
                      ))}
                    </Group>
                  </Table.Td>
                  <Table.Td ta="right">{c.rowNumber}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
        {data && data.total > PAGE_SIZE && (
          <Group justify="flex-end">
            <Pagination total={Math.ceil(data.total / PAGE_SIZE)} value={page} onChange={setPage} size="sm" />
          </Group>
        )}
      </Stack>
    </Modal>
  );
}
