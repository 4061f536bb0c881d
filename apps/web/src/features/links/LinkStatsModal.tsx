import '@mantine/charts/styles.css';
import type { RotatingLink } from '@ecoa/shared';
import { BarChart } from '@mantine/charts';
import { Button, Group, Loader, Modal, Progress, SegmentedControl, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { intlLocale } from '../../platform/i18n';
import { notify } from '../../platform/notify';
import { DataTable } from '../../ui/DataTable';
import { LabeledValue } from '../../ui/LabeledValue';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { linkErrorText } from './errors';
import { linksApi } from './linksApi';
import { linksKeys } from './queryKeys';

/** A link's clicks over a period: per target, per day, top referrers and UTM campaigns; the CSV export. */
export function LinkStatsModal({ link, onClose }: { link: RotatingLink; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const [days, setDays] = useState('30');
  const [bucket, setBucket] = useState<'day' | 'hour'>('day');
  const stats = useQuery({
    queryKey: linksKeys.stats(link.id, days, bucket),
    queryFn: () => linksApi.stats(link.id, Number(days), bucket),
  });
  const locale = intlLocale(i18n.language);
  const number = (n: number) => n.toLocaleString(locale);
  // Buckets are São Paulo wall-clock times (`YYYY-MM-DDTHH:mm`); shown as such whatever the browser's zone.
  const when = new Intl.DateTimeFormat(locale, {
    timeZone: 'America/Sao_Paulo',
    day: '2-digit',
    month: '2-digit',
    ...(bucket === 'hour' ? { hour: '2-digit', minute: '2-digit' } : {}),
  });
  const s = stats.data;
  // Where the clicks came from, and which campaigns sent them: one small table each.
  const tops = s
    ? [
        { header: 'links.stats.referrers', rows: s.topReferrers.map((r) => ({ name: r.referrer, clicks: r.clicks })) },
        {
          header: 'links.stats.campaigns',
          rows: s.topCampaigns.map((r) => ({ name: r.utmCampaign, clicks: r.clicks })),
        },
      ]
    : [];
  const top = Math.max(1, ...(s?.byTarget.map((x) => x.clicks) ?? []));

  return (
    <Modal opened onClose={onClose} size="lg" title={t('links.stats.title', { name: link.name })}>
      <Stack gap="md" data-testid="link-stats">
        <Group justify="space-between">
          <SegmentedControl
            value={days}
            onChange={setDays}
            data={['7', '30', '90'].map((d) => ({ value: d, label: t('links.stats.days', { count: Number(d) }) }))}
          />
          <Button
            variant="light"
            leftSection={<IconDownload size={16} />}
            data-testid="link-export"
            onClick={() => linksApi.exportClicks(link).catch((err: unknown) => notify.error(linkErrorText(t, err)))}
          >
            {t('links.stats.export')}
          </Button>
        </Group>
        <LoadErrorAlert query={stats} fallbackKey="loadError.linkStats" />
        {stats.isPending && <Loader size="sm" />}
        {s && (
          <>
            <SimpleGrid cols={2}>
              <LabeledValue
                label={t('links.stats.clicks')}
                value={number(s.clicks)}
                testId="link-stats-clicks"
                size="xl"
              />
              <LabeledValue label={t('links.stats.fallback')} value={number(s.fallbackClicks)} size="xl" />
            </SimpleGrid>
            <Stack gap={6}>
              <Text fw={600} size="sm">
                {t('links.stats.byTarget')}
              </Text>
              {s.byTarget.length === 0 && (
                <Text size="sm" c="dimmed">
                  {t('links.stats.none')}
                </Text>
              )}
              {s.byTarget.map((x) => (
                <div key={x.targetId}>
                  <Group justify="space-between">
                    <Text size="sm">{x.label ?? '—'}</Text>
                    <Text size="sm" fw={600}>
                      {number(x.clicks)}
                    </Text>
                  </Group>
                  <Progress value={(x.clicks / top) * 100} size="sm" />
                </div>
              ))}
            </Stack>
            <Stack gap={6}>
              <Group justify="space-between">
                <Text fw={600} size="sm">
                  {t('links.stats.overTime')}
                </Text>
                <SegmentedControl
                  size="xs"
                  value={bucket}
                  onChange={(v) => setBucket(v as 'day' | 'hour')}
                  data={[
                    { value: 'day', label: t('links.stats.byDay') },
                    { value: 'hour', label: t('links.stats.byHour') },
                  ]}
                  data-testid="link-stats-bucket"
                />
              </Group>
              {s.byDay.length === 0 ? (
                <Text size="sm" c="dimmed">
                  {t('links.stats.none')}
                </Text>
              ) : (
                <BarChart
                  h={180}
                  data={s.byDay.map((x) => ({ at: when.format(new Date(`${x.day}:00-03:00`)), clicks: x.clicks }))}
                  dataKey="at"
                  series={[{ name: 'clicks', label: t('links.stats.clicks'), color: 'teal.6' }]}
                  tickLine="y"
                  valueFormatter={number}
                  data-testid="link-stats-chart"
                />
              )}
            </Stack>
            {(s.topReferrers.length > 0 || s.topCampaigns.length > 0) && (
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                {tops.map(({ header, rows }) => (
                  <DataTable
                    key={header}
                    columns={[
                      { header: t(header), cell: (r) => r.name },
                      { header: t('links.stats.clicks'), align: 'right', cell: (r) => number(r.clicks) },
                    ]}
                    rows={rows}
                    rowKey={(r) => r.name}
                  />
                ))}
              </SimpleGrid>
            )}
          </>
        )}
      </Stack>
    </Modal>
  );
}
