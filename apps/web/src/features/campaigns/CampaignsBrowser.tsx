import { CAMPAIGN_STATUSES, type CampaignSummary, CHANNELS } from '@ecoa/shared';
import { Card, Group, Select, Stack, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePagedSearch } from '../../platform/usePagedSearch';
import { TablePagination } from '../../ui/DataTable';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { LoadingState } from '../../ui/LoadingState';
import { SearchInput } from '../../ui/SearchInput';
import { CampaignsTable } from './CampaignsTable';
import { campaignsApi } from './campaignsApi';
import { campaignsPollInterval, summaryPollFacts } from './pollInterval';
import { campaignsKeys } from './queryKeys';

const PAGE_SIZE = 20;
const pollInterval = (items: CampaignSummary[] | undefined) =>
  campaignsPollInterval((items ?? []).map(summaryPollFacts));

/** The campaigns table with its filters, search and pages; live while something moves (polling). */
export function CampaignsBrowser({ admin = false }: { admin?: boolean }) {
  const { t } = useTranslation();
  const [status, setStatus] = useState<string | null>(null);
  const [channel, setChannel] = useState<string | null>(null);
  const { paging, page, search, setSearch, debounced: q, refilter: reset } = usePagedSearch(PAGE_SIZE);
  const query = { status: status ?? undefined, channel: channel ?? undefined, q, page, pageSize: PAGE_SIZE };
  const campaigns = useQuery({
    queryKey: campaignsKeys.list(admin ? 'all' : 'mine', query),
    queryFn: () => (admin ? campaignsApi.listAll(query) : campaignsApi.list(query)),
    placeholderData: keepPreviousData,
    // Live without reloading: at the pace of the liveliest campaign on the page (pollInterval.ts).
    refetchInterval: (qr) => pollInterval(qr.state.data?.items),
    refetchOnWindowFocus: (qr) => (pollInterval(qr.state.data?.items) === false ? false : 'always'),
  });

  return (
    <Card withBorder radius="lg" padding="lg">
      <Stack>
        <Group gap="sm" wrap="wrap">
          <SearchInput
            placeholder={t(admin ? 'campaigns.searchAdmin' : 'campaigns.search')}
            value={search}
            onSearch={setSearch}
            w={{ base: '100%', sm: 280 }}
            data-testid="campaigns-search"
          />
          <Select
            placeholder={t('campaigns.filters.status')}
            data={CAMPAIGN_STATUSES.map((s) => ({ value: s, label: t(`campaigns.status.${s}`) }))}
            value={status}
            onChange={reset(setStatus)}
            clearable
            w={{ base: '48%', sm: 180 }}
            data-testid="campaigns-filter-status"
          />
          <Select
            placeholder={t('campaigns.filters.channel')}
            data={CHANNELS.map((c) => ({ value: c, label: t(`channels.names.${c}`) }))}
            value={channel}
            onChange={reset(setChannel)}
            clearable
            w={{ base: '48%', sm: 180 }}
          />
        </Group>
        <LoadErrorAlert query={campaigns} fallbackKey="loadError.campaigns" data-testid="campaigns-error" />
        {campaigns.isPending ? (
          <LoadingState />
        ) : campaigns.data && campaigns.data.items.length > 0 ? (
          <CampaignsTable items={campaigns.data.items} admin={admin} />
        ) : campaigns.isError || !campaigns.data ? null : (
          <Text c="dimmed" ta="center" py="xl" data-testid="campaigns-empty">
            {t(q || status || channel ? 'campaigns.noneFound' : 'campaigns.none')}
          </Text>
        )}
        <TablePagination paging={paging} total={campaigns.data?.total} />
      </Stack>
    </Card>
  );
}
