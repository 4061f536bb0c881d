import { formatBrazilianPhone, formatCnpj } from '@ecoa/shared';
import { Badge, Card, Group, Pagination, SegmentedControl, Stack, Table, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { enrichmentApi } from './enrichmentApi';
import { enrichmentKeys } from './queryKeys';

const PAGE_SIZE = 50;

/** An enrichment's CNPJs, found or not: company, situation, place, CNAE, phones (mobile or landline), e-mail. */
export function EnrichmentResultsTable({ id, admin }: { id: string; admin: boolean }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [filter, setFilter] = useState<'all' | 'found' | 'notFound'>('all');
  const found = filter === 'all' ? undefined : filter === 'found';
  const results = useQuery({
    queryKey: enrichmentKeys.results(id, admin, page, filter),
    queryFn: () => enrichmentApi.results(id, { page, found }, admin),
    placeholderData: keepPreviousData,
  });
  const pages = Math.max(1, Math.ceil((results.data?.total ?? 0) / PAGE_SIZE));
  return (
    <Card withBorder radius="lg" padding="lg">
      <Stack>
        <Group justify="space-between">
          <Title order={4}>{t('enrichment.results')}</Title>
          <SegmentedControl
            size="xs"
            value={filter}
            onChange={(v) => {
              setFilter(v as typeof filter);
              setPage(1);
            }}
            data={[
              { value: 'all', label: t('enrichment.filter.all') },
              { value: 'found', label: t('enrichment.filter.found') },
              { value: 'notFound', label: t('enrichment.filter.notFound') },
            ]}
            data-testid="enrichment-results-filter"
          />
        </Group>
        <LoadErrorAlert
          query={results}
          fallbackKey="loadError.enrichmentResults"
          data-testid="enrichment-results-error"
        />
        <Table.ScrollContainer minWidth={1000}>
          <Table verticalSpacing="xs" data-testid="enrichment-results">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>CNPJ</Table.Th>
                <Table.Th miw={220}>{t('enrichment.columns.company')}</Table.Th>
                <Table.Th miw={110}>{t('enrichment.columns.situation')}</Table.Th>
                <Table.Th miw={150}>{t('enrichment.columns.place')}</Table.Th>
                <Table.Th miw={200}>{t('enrichment.columns.phones')}</Table.Th>
                <Table.Th>{t('enrichment.columns.email')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {results.data?.items.map((r) => (
                <Table.Tr key={r.cnpj} data-testid="enrichment-result">
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatCnpj(r.cnpj)}</Table.Td>
                  <Table.Td>
                    {r.found ? (
                      <>
                        <Text size="sm" fw={600}>
                          {r.companyName ?? '—'}
                        </Text>
                        {r.tradeName && (
                          <Text size="xs" c="dimmed">
                            {r.tradeName}
                          </Text>
                        )}
                      </>
                    ) : (
                      <Text size="sm" c="dimmed">
                        {t('enrichment.notFound')}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    {r.situation && (
                      <Badge
                        variant="light"
                        color={r.situation === 'ativa' ? 'teal' : 'gray'}
                        style={{ overflow: 'visible' }}
                      >
                        {t(`enrichment.situation.${r.situation}`)}
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>
                    {r.city ? `${r.city}/${r.uf ?? ''}` : '—'}
                    {r.cnae && (
                      <Text size="xs" c="dimmed">
                        CNAE {r.cnae}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Stack gap={2}>
                      {r.phones.map((p) => (
                        <Text key={p.e164} size="sm" style={{ whiteSpace: 'nowrap' }}>
                          {formatBrazilianPhone(p.e164)}{' '}
                          <Text span size="xs" c={p.kind === 'mobile' ? 'blue' : 'dimmed'}>
                            {t(`enrichment.phoneKind.${p.kind}`)}
                          </Text>
                        </Text>
                      ))}
                    </Stack>
                  </Table.Td>
                  <Table.Td>{r.email ?? ''}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {pages > 1 && <Pagination value={page} onChange={setPage} total={pages} />}
      </Stack>
    </Card>
  );
}
