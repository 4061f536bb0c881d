import type { CampaignCounts } from '@ecoa/shared';
import { Alert, Anchor, Button, Card, ColorSwatch, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconCopy, IconDownload } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { errorText } from '../../platform/errors';
import { intlLocale } from '../../platform/i18n';
import { notify } from '../../platform/notify';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { LoadingState } from '../../ui/LoadingState';
import { STATUS_COLOR } from '../channels';
import { CampaignActions } from './CampaignActions';
import { CampaignReasons } from './CampaignReasons';
import { CampaignRecipients } from './CampaignRecipients';
import { CampaignStatusBadge } from './CampaignStatusBadge';
import { CampaignTimelineChart } from './CampaignTimelineChart';
import { campaignsApi } from './campaignsApi';
import { campaignsKeys } from './queryKeys';
import { saoPauloDateTime } from './times';
import { useLiveCampaign } from './useLiveCampaign';

const COUNT_STATUS: Record<keyof CampaignCounts, keyof typeof STATUS_COLOR> = {
  queued: 'queued',
  submitting: 'submitting',
  sent: 'sent',
  delivered: 'delivered',
  failed: 'failed',
  expired: 'expired',
  unknown: 'unknown',
  optedOut: 'opted_out',
  canceled: 'canceled',
};

/** `/campanhas/:id`: live counts, credits, the why of a pause, the chart, reasons, URA answers, recipients, export. */
export function CampaignDetailPage() {
  const { t, i18n } = useTranslation();
  const { id = '' } = useParams();
  const navigate = useNavigate();
  // Live without reloading, at the pace of what can still move (pollInterval.ts).
  const { campaign, panelInterval } = useLiveCampaign(id);
  const queryClient = useQueryClient();
  // A refusal is said, never swallowed; the copy is a new draft every campaigns list must show.
  const duplicate = useMutation({
    mutationFn: () => campaignsApi.duplicate(id),
    onSuccess: async ({ id: copy }) => {
      await queryClient.invalidateQueries({ queryKey: campaignsKeys.all });
      void navigate(`/campanhas/criar-campanha?rascunho=${copy}`);
    },
    onError: (err) => notify.error(errorText(err, t)),
  });
  const download = useMutation({
    mutationFn: () => campaignsApi.export(id),
    onError: (err) => notify.error(errorText(err, t)),
  });
  const number = new Intl.NumberFormat(intlLocale(i18n.language));
  const percent = new Intl.NumberFormat(intlLocale(i18n.language), { style: 'percent', maximumFractionDigits: 1 });

  if (campaign.isError)
    return <LoadErrorAlert query={campaign} fallbackKey="loadError.campaign" data-testid="campaign-error" />;
  const c = campaign.data;
  if (!c) return <LoadingState />;
  const tracked = c.content.trackedLink !== undefined;
  return (
    <Stack gap="lg" data-testid="campaign-detail">
      <Anchor component={Link} to="/campanhas" size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} />
          {t('nav.campaigns')}
        </Group>
      </Anchor>
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <Stack gap={4}>
          <Group gap="sm">
            <Title order={2} data-testid="campaign-name">
              {c.name}
            </Title>
            <CampaignStatusBadge status={c.status} waitingWindow={c.waitingWindow} />
          </Group>
          <Text c="dimmed" size="sm">
            {t(`channels.names.${c.channel}`)} · {t('campaigns.detail.recipientsCount', { count: c.total })}
          </Text>
        </Stack>
        <Group gap="sm">
          <CampaignActions id={c.id} status={c.status} />
          <Button
            variant="default"
            leftSection={<IconCopy size={16} />}
            onClick={() => duplicate.mutate()}
            loading={duplicate.isPending}
            data-testid="campaign-duplicate"
          >
            {t('campaigns.duplicate')}
          </Button>
          <Button
            variant="default"
            leftSection={<IconDownload size={16} />}
            onClick={() => download.mutate()}
            loading={download.isPending}
            disabled={c.total === 0}
            data-testid="campaign-export"
          >
            {t('campaigns.export')}
          </Button>
        </Group>
      </Group>

      {c.statusReason && (
        <Alert
          color={c.status === 'FAILED' ? 'red' : 'yellow'}
          title={t(`campaigns.statusReason.${c.statusReason}`, { defaultValue: c.statusReason })}
          data-testid="campaign-status-reason"
        >
          {c.statusDetail}
        </Alert>
      )}
      {c.waitingWindow && (
        <Alert color="blue" data-testid="campaign-window-notice">
          {t('campaigns.detail.windowNotice', { start: c.window.start, end: c.window.end })}
        </Alert>
      )}
      {c.status === 'SCHEDULED' && c.scheduledAt && (
        <Alert color="violet">
          {t('campaigns.detail.scheduledFor', {
            when: saoPauloDateTime(c.scheduledAt, intlLocale(i18n.language)),
          })}
        </Alert>
      )}

      <SimpleGrid cols={{ base: 2, sm: 3, md: 5 }} spacing="sm">
        {(Object.keys(COUNT_STATUS) as (keyof CampaignCounts)[]).map((key) => (
          <Card key={key} withBorder radius="md" padding="sm" data-testid={`count-${key}`}>
            {/* A dot and a label that wraps, not a badge: a badge cut "Sem confirmação" to "SEM CONFIRMAÇ…". */}
            <Group gap={6} wrap="nowrap" align="center">
              <ColorSwatch
                color={`var(--mantine-color-${STATUS_COLOR[COUNT_STATUS[key]]}-5)`}
                size={8}
                withShadow={false}
              />
              <Text size="xs" fw={600} c="dimmed" lh={1.25}>
                {t(`channels.statuses.${COUNT_STATUS[key]}`)}
              </Text>
            </Group>
            <Text fz={26} fw={700} data-testid={`count-${key}-value`}>
              {number.format(c.counts[key])}
            </Text>
          </Card>
        ))}
      </SimpleGrid>

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Card withBorder radius="lg" padding="lg" data-testid="campaign-credits">
          <Title order={4} mb="sm">
            {t('campaigns.detail.credits', { type: t(`credits.types.${c.creditType}`) })}
          </Title>
          <SimpleGrid cols={3}>
            {(['reserved', 'used', 'released'] as const).map((k) => (
              <Stack key={k} gap={0}>
                <Text size="sm" c="dimmed">
                  {t(`campaigns.detail.credit.${k}`)}
                </Text>
                <Text fz={22} fw={700} data-testid={`credits-${k}`}>
                  {number.format(c.credits[k])}
                </Text>
              </Stack>
            ))}
          </SimpleGrid>
        </Card>
        <CampaignReasons campaign={c} />
      </SimpleGrid>

      {tracked && (
        <Card withBorder radius="lg" padding="lg" data-testid="campaign-clicks">
          <Title order={4} mb="sm">
            {t('campaigns.detail.trackedLink')}
          </Title>
          <SimpleGrid cols={3}>
            {(
              [
                ['clicks', number.format(c.clicks.total)],
                ['clickers', number.format(c.clicks.recipients)],
                ['ctr', percent.format(c.clicks.rate)],
              ] as const
            ).map(([key, value]) => (
              <Stack key={key} gap={0}>
                <Text size="sm" c="dimmed">
                  {t(`campaigns.detail.${key}`)}
                </Text>
                <Text fz={22} fw={700} data-testid={`clicks-${key}`}>
                  {value}
                </Text>
              </Stack>
            ))}
          </SimpleGrid>
        </Card>
      )}
      <CampaignTimelineChart id={c.id} interval={panelInterval} />
      <CampaignRecipients id={c.id} interval={panelInterval} tracked={tracked} />
    </Stack>
  );
}
