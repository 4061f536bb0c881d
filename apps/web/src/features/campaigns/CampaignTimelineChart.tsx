import '@mantine/charts/styles.css';
import { AreaChart } from '@mantine/charts';
import { Card, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { intlLocale } from '../../platform/i18n';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { campaignsApi } from './campaignsApi';
import { campaignsKeys } from './queryKeys';
import { browserShowsSaoPaulo, timelineTick } from './times';

/**
 * Sends, deliveries and failures per bucket (1 s to an hour, from the campaign's length), live while it may move:
 * `interval` is the campaign's poll interval (false: still), never faster than every 5 s here.
 */
export function CampaignTimelineChart({ id, interval }: { id: string; interval: number | false }) {
  const { t, i18n } = useTranslation();
  const timeline = useQuery({
    queryKey: campaignsKeys.timeline(id),
    queryFn: () => campaignsApi.timeline(id),
    refetchInterval: interval === false ? false : Math.max(interval, 5000),
    refetchOnWindowFocus: interval === false ? false : 'always',
  });
  const locale = intlLocale(i18n.language);
  const bucket = timeline.data?.bucket ?? 'minute';
  const data = (timeline.data?.points ?? []).map((p) => ({
    at: timelineTick(p.at, bucket, locale),
    sent: p.sent,
    delivered: p.delivered,
    failed: p.failed,
  }));
  return (
    <Card withBorder radius="lg" padding="lg" data-testid="campaign-timeline">
      <Title order={4} mb="md">
        {t('campaigns.detail.timeline')}
        {browserShowsSaoPaulo() ? '' : ` (${t('campaigns.timeZone.brasilia')})`}
      </Title>
      {timeline.isError ? (
        <LoadErrorAlert query={timeline} fallbackKey="loadError.timeline" data-testid="campaign-timeline-error" />
      ) : !timeline.data ? null : data.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t('campaigns.detail.noTimeline')}
        </Text>
      ) : (
        <AreaChart
          h={220}
          data={data}
          dataKey="at"
          curveType="monotone"
          withLegend
          series={[
            { name: 'sent', label: t('channels.statuses.sent'), color: 'blue.6' },
            { name: 'delivered', label: t('channels.statuses.delivered'), color: 'teal.6' },
            { name: 'failed', label: t('channels.statuses.failed'), color: 'red.6' },
          ]}
        />
      )}
    </Card>
  );
}
