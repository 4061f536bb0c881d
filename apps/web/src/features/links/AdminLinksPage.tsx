import { Paper, Stack, Tabs, Text } from '@mantine/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePagedSearch } from '../../platform/usePagedSearch';
import { TablePagination } from '../../ui/DataTable';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { PageHeader } from '../../ui/PageHeader';
import { SearchInput } from '../../ui/SearchInput';
import { SEARCH_DEBOUNCE_MS } from '../../ui/useSearchPicker';
import { AdminRotatingLinks } from './AdminRotatingLinks';
import { AdminTrackedLinks } from './AdminTrackedLinks';
import { linksApi } from './linksApi';
import { linksKeys } from './queryKeys';

type Kind = 'rotating' | 'tracked';
const PAGE_SIZE = 20;

/**
 * `/links` (administrators): every user's rotating links and campaigns' tracked links, with
 * owner, clicks and status; an abusive one is disabled (audited) and its visitors get the
 * friendly page.
 */
export function AdminLinksPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<Kind>('rotating');
  // One request per pause in typing, not one per key.
  const { paging, page, search, setSearch, debounced, refilter } = usePagedSearch(PAGE_SIZE, SEARCH_DEBOUNCE_MS);
  const searched = debounced.trim();
  const rotating = useQuery({
    queryKey: linksKeys.adminPage('rotating', searched, page),
    queryFn: () => linksApi.adminList(searched, page),
    placeholderData: keepPreviousData,
    enabled: kind === 'rotating',
  });
  const tracked = useQuery({
    queryKey: linksKeys.adminPage('tracked', searched, page),
    queryFn: () => linksApi.adminTracked(searched, page),
    placeholderData: keepPreviousData,
    enabled: kind === 'tracked',
  });
  const current = kind === 'rotating' ? rotating : tracked;
  const refresh = () => queryClient.invalidateQueries({ queryKey: linksKeys.admin });
  const total = current.data?.total ?? 0;
  // Either tab's disable or enable, by the link's (or the campaign's) id, then both lists read again.
  const setDisabled =
    (call: (id: string, disabled: boolean, reason?: string) => Promise<unknown>) =>
    async (link: { id: string }, disabled: boolean, reason?: string) => {
      await call(link.id, disabled, reason);
      await refresh();
    };

  return (
    <Stack gap="md">
      <PageHeader title={t('adminLinks.title')} subtitle={t('adminLinks.subtitle')} />
      <Tabs value={kind} keepMounted={false} onChange={refilter((v) => setKind((v as Kind) ?? 'rotating'))}>
        <Tabs.List>
          <Tabs.Tab value="rotating" data-testid="admin-links-rotating">
            {t('adminLinks.tabs.rotating')}
          </Tabs.Tab>
          <Tabs.Tab value="tracked" data-testid="admin-links-tracked">
            {t('adminLinks.tabs.tracked')}
          </Tabs.Tab>
        </Tabs.List>
        {/* One panel per tab (each tab's aria-controls names it); only the open one is mounted. */}
        {(['rotating', 'tracked'] as const).map((value) => (
          <Tabs.Panel key={value} value={value} pt="md">
            <Stack gap="md">
              <SearchInput
                placeholder={t(kind === 'rotating' ? 'adminLinks.search' : 'adminLinks.searchTracked')}
                value={search}
                onSearch={setSearch}
                maw={360}
              />
              <LoadErrorAlert query={current} fallbackKey="loadError.links" />
              {current.isSuccess && total === 0 && (
                <Text c="dimmed" size="sm">
                  {t('adminLinks.empty')}
                </Text>
              )}
              {(current.data?.items.length ?? 0) > 0 && (
                <Paper withBorder>
                  {kind === 'rotating' ? (
                    <AdminRotatingLinks
                      items={rotating.data!.items}
                      onSetDisabled={setDisabled(linksApi.adminSetDisabled)}
                    />
                  ) : (
                    <AdminTrackedLinks
                      items={tracked.data!.items}
                      onSetDisabled={setDisabled(linksApi.adminSetTrackedDisabled)}
                    />
                  )}
                </Paper>
              )}
              <TablePagination paging={paging} total={total} />
            </Stack>
          </Tabs.Panel>
        ))}
      </Tabs>
    </Stack>
  );
}
