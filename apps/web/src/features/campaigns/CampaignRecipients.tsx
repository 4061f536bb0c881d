import { type CampaignMessages, MESSAGE_STATUSES } from '@ecoa/shared';
import { Badge, Card, Group, Select, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { intlLocale } from '../../platform/i18n';
import { usePagedSearch } from '../../platform/usePagedSearch';
import { type DataColumn, DataTable, TablePagination } from '../../ui/DataTable';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
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
  const { paging, page, search, setSearch, debounced: q, refilter } = usePagedSearch(PAGE_SIZE);
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
  const columns: DataColumn<CampaignMessages['items'][number]>[] = [
    { header: t('campaigns.detail.phone'), cell: (r) => r.to },
    { header: t('campaigns.detail.name'), cell: (r) => r.name ?? '—' },
    {
      header: t('campaigns.columns.status'),
      cell: (r) => (
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
      ),
    },
    { header: t('campaigns.detail.parts'), cell: (r) => r.parts },
    {
      header: t('campaigns.detail.clicks'),
      show: tracked,
      cellProps: { 'data-testid': 'recipient-clicks' },
      cell: (r) => r.clicks,
    },
    { header: `${t('campaigns.detail.sentAt')}${zone}`, cell: (r) => time(r.submittedAt) },
    { header: `${t('campaigns.detail.finishedAt')}${zone}`, cell: (r) => time(r.finishedAt) },
  ];
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
        <DataTable
          columns={columns}
          rows={recipients.data?.items}
          rowKey={(r) => r.id}
          rowTestId="recipient-row"
          minWidth={640}
          verticalSpacing="xs"
          data-testid="recipients-table"
        />
        <LoadErrorAlert query={recipients} fallbackKey="loadError.recipients" data-testid="recipients-error" />
        {!recipients.isError && recipients.data?.items.length === 0 && (
          <Text c="dimmed" ta="center">
            {t('campaigns.detail.noRecipients')}
          </Text>
        )}
        <TablePagination paging={paging} total={recipients.data?.total} />
      </Stack>
    </Card>
  );
}
