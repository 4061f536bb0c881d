import { Group, Pagination, Paper, Stack, Text, TextInput } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { PageHeader } from '../../ui/PageHeader';
import { CnpjBaseCard } from './CnpjBaseCard';
import { EnrichmentsTable } from './EnrichmentsTable';
import { enrichmentApi } from './enrichmentApi';
import { enrichmentKeys } from './queryKeys';
import { UserFilter } from './UserFilter';

/** A `YYYY-MM-DD` date input as the start of that day in São Paulo (UTC−3 all year). */
const dayStart = (day: string) => (day ? `${day}T00:00:00-03:00` : undefined);
const dayEnd = (day: string) => (day ? `${day}T23:59:59.999-03:00` : undefined);

/** `/listas-enriquecidas-por-usuario` (administrators): every user's enrichments, by user and period; the CNPJ base. */
export function AdminEnrichmentsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [userId, setUserId] = useState<string | null>(null);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: enrichmentKeys.admin(userId, from, to, page),
    queryFn: () => enrichmentApi.adminList({ page, userId: userId ?? undefined, from: dayStart(from), to: dayEnd(to) }),
    placeholderData: keepPreviousData,
  });
  const items = list.data?.items ?? [];
  return (
    <Stack gap="md">
      <PageHeader title={t('nav.enrichmentPerUser')} subtitle={t('enrichment.admin.subtitle')} />
      <CnpjBaseCard />
      <Group align="end">
        <UserFilter
          value={userId}
          onChange={(id) => {
            setUserId(id);
            setPage(1);
          }}
        />
        {(
          [
            ['from', from, setFrom],
            ['to', to, setTo],
          ] as const
        ).map(([key, value, set]) => (
          <TextInput
            key={key}
            type="date"
            label={t(`enrichment.admin.${key}`)}
            value={value}
            onChange={(e) => set(e.currentTarget.value)}
            data-testid={`enrichment-admin-${key}`}
          />
        ))}
      </Group>
      <LoadErrorAlert query={list} fallbackKey="loadError.enrichments" />
      {list.isSuccess && items.length === 0 && (
        <Text c="dimmed" size="sm">
          {t('enrichment.admin.empty')}
        </Text>
      )}
      {items.length > 0 && (
        <Paper withBorder>
          <EnrichmentsTable items={items} onOpen={(e) => navigate(`/listas-enriquecidas-por-usuario/${e.id}`)} />
        </Paper>
      )}
      {(list.data?.total ?? 0) > 20 && (
        <Pagination value={page} onChange={setPage} total={Math.ceil((list.data?.total ?? 0) / 20)} />
      )}
    </Stack>
  );
}
