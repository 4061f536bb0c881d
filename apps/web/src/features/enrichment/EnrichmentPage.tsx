import { Alert, Pagination, Paper, Stack } from '@mantine/core';
import { IconDatabaseSearch } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { AddButton } from '../../ui/AddButton';
import { EmptyState } from '../../ui/EmptyState';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { PageHeader } from '../../ui/PageHeader';
import { EnrichmentsTable } from './EnrichmentsTable';
import { enrichmentApi } from './enrichmentApi';
import { monthName } from './format';
import { NewEnrichmentModal } from './NewEnrichmentModal';
import { enrichmentKeys } from './queryKeys';

/** `/listas-enriquecidas`: the user's enrichments, a new one, the base's month. */
export function EnrichmentPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const base = useQuery({ queryKey: enrichmentKeys.base, queryFn: enrichmentApi.base });
  const list = useQuery({
    queryKey: enrichmentKeys.page(page),
    queryFn: () => enrichmentApi.list(page),
    placeholderData: keepPreviousData,
    // Live while one is still being looked up.
    refetchInterval: (q) => (q.state.data?.items.some((e) => e.status === 'processing') ? 1500 : false),
  });
  const items = list.data?.items ?? [];
  const month = base.data?.referenceMonth;

  return (
    <Stack gap="md">
      <PageHeader
        title={t('enrichment.title')}
        subtitle={
          month ? t('enrichment.baseMonth', { month: monthName(month, i18n.language) }) : t('enrichment.subtitle')
        }
        subtitleTestId="enrichment-base-month"
        actions={
          <AddButton onClick={() => setCreating(true)} disabled={base.isSuccess && !month} data-testid="enrichment-new">
            {t('enrichment.new.button')}
          </AddButton>
        }
      />
      {base.isSuccess && !month && (
        <Alert color="yellow" data-testid="enrichment-no-base">
          {t('errors.codes.CNPJ_BASE_EMPTY')}
        </Alert>
      )}
      <LoadErrorAlert query={list} fallbackKey="loadError.enrichments" />
      {list.isSuccess && items.length === 0 && (
        <EmptyState
          icon={<IconDatabaseSearch size={28} />}
          title={t('enrichment.empty.title')}
          body={t('enrichment.empty.body')}
        />
      )}
      {items.length > 0 && (
        <Paper withBorder>
          <EnrichmentsTable items={items} onOpen={(e) => navigate(`/listas-enriquecidas/${e.id}`)} />
        </Paper>
      )}
      {(list.data?.total ?? 0) > 20 && (
        <Pagination value={page} onChange={setPage} total={Math.ceil((list.data?.total ?? 0) / 20)} />
      )}
      {creating && (
        <NewEnrichmentModal
          onClose={() => setCreating(false)}
          onCreated={(id) => {
            setCreating(false);
            void navigate(`/listas-enriquecidas/${id}`);
          }}
        />
      )}
    </Stack>
  );
}
