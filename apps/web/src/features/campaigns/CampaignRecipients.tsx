import { MESSAGE_STATUSES } from '@ecoa/shared';
import { Badge, Card, Group, Select, Stack, Switch, Table, Text, TextInput, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { intlLocale } from '../../platform/i18n';
import { usePagedSearch } from '../../platform/usePagedSearch';
import { TablePagination } from '../../ui/DataTable';
import { QueryErrorAlert } from '../../ui/LoadErrorAlert';
import { reasonText, STATUS_COLOR } from '../channels';
import { campaignsApi } from './campaignsApi';
import { campaignsKeys } from './queryKeys';
import { browserShowsSaoPaulo, saoPauloDateTime } from './times';

const PAGE_SIZE = 50;

/**
 * A campaign's recipients: status, reason, parts, digits, times; filter by status, search by phone.
 * `interval` is the campaign's poll interval (false: still), never faster than every 4 s here.
 */
export function CampaignRecipients({
  id,
  interval,
  tracked,
}: {
  id: string;
  interval: number | false;
  tracked: boolean;
}) {
  const { t, i18n } = useTranslation();
  const [status, setStatus] = useState<string | null>(null);
  const [onlyClicked, setOnlyClicked] = useState(false);
  const { page, setPage, search, setSearch, debounced: q, refilter } = usePagedSearch();
  const query = { status: status ?? undefined, q, clicked: onlyClicked || undefined, page, pageSize: PAGE_SIZE };
  const recipients = useQuery({
    queryKey: campaignsKeys.messagesPage(id, query),
    queryFn: () => campaignsApi.messages(id, query),
    placeholderData: keepPreviousData,
    refetchInterval: interval === false ? false : Math.max(interval, 4000),
    refetchOnWindowFocus: interval === false ? false : 'always',
  });
  const locale = intlLocale(i18n.language);
  // Date and time, in São Paulo: receipts may come the next day; the zone named where the browser's differs.
  const time = (iso: string | null) => (iso ? saoPauloDateTime(iso, locale, { seconds: true }) : '—');
  const zone = browserShowsSaoPaulo() ? '' : ` (${t('campaigns.timeZone.brasilia')})`;
  return (
    <Card withBorder radius="lg" padding="lg">
      <Stack>
        <Group justify="space-between" wrap="wrap">
          <Title order={4}>{t('campaigns.detail.recipients')}</Title>
          <Group gap="sm">
            {tracked && (
              <Switch
                label={t('campaigns.detail.onlyClicked')}
                checked={onlyClicked}
                onChange={(e) => refilter(setOnlyClicked)(e.currentTarget.checked)}
                data-testid="recipients-only-clicked"
              />
            )}
            <TextInput
              placeholder={t('campaigns.detail.searchPhone')}
              value={search}
              onChange={(e) => setSearch(e.currentTarget.value)}
              w={180}
            />
            <Select
              placeholder={t('campaigns.filters.status')}
              data={MESSAGE_STATUSES.map((s) => ({ value: s, label: t(`channels.statuses.${s}`) }))}
              value={status}
              onChange={refilter(setStatus)}
              clearable
              w={180}
              data-testid="recipients-filter-status"
            />
          </Group>
        </Group>
        <Table.ScrollContainer minWidth={640}>
          <Table verticalSpacing="xs" data-testid="recipients-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('campaigns.detail.phone')}</Table.Th>
                <Table.Th>{t('campaigns.detail.name')}</Table.Th>
                <Table.Th>{t('campaigns.columns.status')}</Table.Th>
                <Table.Th>{t('campaigns.detail.parts')}</Table.Th>
                {tracked && <Table.Th>{t('campaigns.detail.clicks')}</Table.Th>}
                <Table.Th>{`${t('campaigns.detail.sentAt')}${zone}`}</Table.Th>
                <Table.Th>{`${t('campaigns.detail.finishedAt')}${zone}`}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {recipients.data?.items.map((r) => (
                <Table.Tr key={r.id} data-testid="recipient-row">
                  <Table.Td>{r.to}</Table.Td>
                  <Table.Td>{r.name ?? '—'}</Table.Td>
                  <Table.Td>
                    <Stack gap={2}>
                      <Badge color={STATUS_COLOR[r.status]} variant="light">
                        {t(`channels.statuses.${r.status}`)}
                      </Badge>
                      {r.reason && (
                        <Text size="xs" c="dimmed">
                          {reasonText(t, r.reason)}
                        </Text>
                      )}
                      {r.digits && (
                        <Text size="xs" c="dimmed">
                          {t('campaigns.detail.pressed', { digits: r.digits })}
                        </Text>
                      )}
                    </Stack>
                  </Table.Td>
                  <Table.Td>{r.parts}</Table.Td>
                  {tracked && <Table.Td data-testid="recipient-clicks">{r.clicks}</Table.Td>}
                  <Table.Td>{time(r.submittedAt)}</Table.Td>
                  <Table.Td>{time(r.finishedAt)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <QueryErrorAlert query={recipients} fallbackKey="loadError.recipients" data-testid="recipients-error" />
        {!recipients.isError && recipients.data?.items.length === 0 && (
          <Text c="dimmed" ta="center">
            {t('campaigns.detail.noRecipients')}
          </Text>
        )}
        <TablePagination total={recipients.data?.total} pageSize={PAGE_SIZE} value={page} onChange={setPage} />
      </Stack>
    </Card>
  );
}
