import type { Enrichment } from '@ecoa/shared';
import { Alert, Anchor, Button, Card, Group, Progress, SimpleGrid, Spoiler, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconDownload, IconListDetails } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { intlLocale } from '../../platform/i18n';
import { notify } from '../../platform/notify';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { LoadingState } from '../../ui/LoadingState';
import { PageHeader } from '../../ui/PageHeader';
import { StatCard } from '../../ui/StatCard';
import { CreateListModal } from './CreateListModal';
import { EnrichmentResultsTable } from './EnrichmentResultsTable';
import { enrichmentApi } from './enrichmentApi';
import { enrichmentErrorText } from './errors';
import { monthName } from './format';
import { enrichmentKeys } from './queryKeys';

const FIGURES = ['total', 'valid', 'invalid', 'duplicates', 'found', 'withPhone', 'notFound'] as const;

/**
 * `/listas-enriquecidas/:id` (the user's) and `/listas-enriquecidas-por-usuario/:id`
 * (administrators, any user's): progress while it runs, the counts, the credits, the invalid
 * inputs, the results, the export and the contact list.
 */
export function EnrichmentDetailPage({ admin = false }: { admin?: boolean }) {
  const { t, i18n } = useTranslation();
  const { id = '' } = useParams();
  const [makingList, setMakingList] = useState(false);
  const enrichment = useQuery({
    queryKey: enrichmentKeys.detail(id, admin),
    queryFn: () => enrichmentApi.get(id, admin),
    refetchInterval: (q) => (q.state.data?.status === 'processing' ? 1000 : false),
  });
  const download = useMutation({
    mutationFn: (e: Enrichment) => enrichmentApi.export(e),
    onError: (err) => notify.error(enrichmentErrorText(t, err)),
  });
  const number = new Intl.NumberFormat(intlLocale(i18n.language));
  const back = admin ? '/listas-enriquecidas-por-usuario' : '/listas-enriquecidas';

  if (enrichment.isError) return <LoadErrorAlert query={enrichment} fallbackKey="loadError.enrichments" />;
  const e = enrichment.data;
  if (!e) return <LoadingState />;
  const ready = e.status === 'ready';
  return (
    <Stack gap="lg" data-testid="enrichment-detail">
      <Anchor component={Link} to={back} size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} />
          {t(admin ? 'nav.enrichmentPerUser' : 'nav.enrichment')}
        </Group>
      </Anchor>
      <PageHeader
        title={e.name}
        subtitle={
          <>
            {e.baseMonth ? t('enrichment.baseMonth', { month: monthName(e.baseMonth, i18n.language) }) : null}
            {e.onlyActive ? ` · ${t('enrichment.onlyActiveShort')}` : ''}
          </>
        }
        actions={
          !admin && (
            <Group gap="sm">
              <Button
                variant="default"
                leftSection={<IconDownload size={16} />}
                disabled={!ready}
                loading={download.isPending}
                onClick={() => download.mutate(e)}
                data-testid="enrichment-export"
              >
                {t('enrichment.export')}
              </Button>
              <Button
                leftSection={<IconListDetails size={16} />}
                disabled={!ready || e.withPhone === 0}
                onClick={() => setMakingList(true)}
                data-testid="enrichment-to-list"
              >
                {t('enrichment.toList.button')}
              </Button>
            </Group>
          )
        }
      />
      {e.status === 'processing' && (
        <Stack gap={4}>
          <Text size="sm">{t('enrichment.processing')}</Text>
          <Progress value={e.progress} animated data-testid="enrichment-progress" />
        </Stack>
      )}
      {e.status === 'failed' && <Alert color="red">{t('enrichment.failed')}</Alert>}
      <SimpleGrid cols={{ base: 2, sm: 4, md: 7 }} spacing="sm">
        {FIGURES.map((key) => (
          <StatCard
            key={key}
            label={t(`enrichment.figures.${key}`)}
            labelSize="xs"
            fz={24}
            valueTestId={`enrichment-${key}`}
            value={ready || ['total', 'valid', 'invalid', 'duplicates'].includes(key) ? number.format(e[key]) : '—'}
          />
        ))}
      </SimpleGrid>
      <Card withBorder radius="lg" padding="lg" data-testid="enrichment-credits">
        <Title order={4} mb="xs">
          {t('enrichment.credits.title')}
        </Title>
        <SimpleGrid cols={3}>
          {(['reserved', 'used', 'released'] as const).map((k) => (
            <Stack key={k} gap={0}>
              <Text size="sm" c="dimmed">
                {t(`enrichment.credits.${k}`)}
              </Text>
              <Text fz={22} fw={700} data-testid={`enrichment-credits-${k}`}>
                {number.format(e.credits[k])}
              </Text>
            </Stack>
          ))}
        </SimpleGrid>
        <Text size="xs" c="dimmed" mt="xs">
          {t('enrichment.credits.help')}
        </Text>
      </Card>
      {e.invalidItems.length > 0 && (
        <Card withBorder radius="lg" padding="lg">
          <Title order={4} mb="xs">
            {t('enrichment.invalidTitle', { count: e.invalid })}
          </Title>
          <Spoiler maxHeight={96} showLabel={t('enrichment.showMore')} hideLabel={t('enrichment.showLess')}>
            <Stack gap={2}>
              {e.invalidItems.map((item, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the same text may be invalid twice
                <Text key={i} size="sm" data-testid="enrichment-invalid-item">
                  {item.value} — {t(`enrichment.invalidReason.${item.reason}`)}
                </Text>
              ))}
            </Stack>
          </Spoiler>
        </Card>
      )}
      {ready && <EnrichmentResultsTable id={e.id} admin={admin} />}
      {makingList && <CreateListModal enrichment={e} onClose={() => setMakingList(false)} />}
    </Stack>
  );
}

/** `/listas-enriquecidas-por-usuario/:id`: any user's enrichment, for administrators. */
export function AdminEnrichmentDetailPage() {
  return <EnrichmentDetailPage admin />;
}
