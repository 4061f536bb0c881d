import { REPLY_CHANNELS, type RepliesFilter, type Reply, type ReplyChannel } from '@ecoa/shared';
import { Button, Group, Paper, Select, Stack, Switch } from '@mantine/core';
import { IconDownload, IconMessageReply } from '@tabler/icons-react';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../platform/errors';
import { notify } from '../../platform/notify';
import { DataTable } from '../../ui/DataTable';
import { EmptyState } from '../../ui/EmptyState';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { MoreButton } from '../../ui/MoreButton';
import { PageHeader } from '../../ui/PageHeader';
import { usePhone } from '../../ui/usePhone';
import { campaignsApi } from '../campaigns';
import { AnswerDialog } from './AnswerDialog';
import { PERIODS, type Period, periodStart } from './format';
import { repliesKeys } from './queryKeys';
import { repliesApi } from './repliesApi';
import { ReplyCard, ReplyRow } from './replyParts';

/** The replies list refreshes this often while open: new replies arrive by themselves. */
const REFRESH_MS = 15_000;

/**
 * `/respostas`: every reply people sent to the user's SMS, WhatsApp and RCS messages, newest
 * first: who (number, name in the user's lists), channel, text (opt-out words marked), when, the
 * campaign it answers; filters, mark handled, CSV export, answer.
 */
export function RepliesPage() {
  const { t } = useTranslation();
  const phone = usePhone();
  const queryClient = useQueryClient();
  const [campaignId, setCampaignId] = useState<string | null>(null);
  const [channel, setChannel] = useState<ReplyChannel | null>(null);
  const [period, setPeriod] = useState<Period>('all');
  const [onlyOpen, setOnlyOpen] = useState(false);
  const [answering, setAnswering] = useState<Reply | null>(null);
  const [exporting, setExporting] = useState(false);

  // The period's start is fixed when chosen, so the query key (and its pages) stay put.
  const from = useMemo(() => periodStart(period), [period]);
  const filter: RepliesFilter = {
    ...(campaignId ? { campaignId } : {}),
    ...(channel ? { channel } : {}),
    ...(from ? { from } : {}),
    ...(onlyOpen ? { handled: 'false' as const } : {}),
  };
  const replies = useInfiniteQuery({
    queryKey: repliesKeys.list(filter),
    queryFn: ({ pageParam }) => repliesApi.page(filter, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    refetchInterval: REFRESH_MS,
  });
  const campaigns = useQuery({
    queryKey: repliesKeys.campaigns,
    queryFn: () => campaignsApi.list({ page: 1, pageSize: 100 }),
  });
  const items = replies.data?.pages.flatMap((p) => p.items) ?? [];
  const filtered = Boolean(campaignId || channel || from || onlyOpen);

  const mark = useMutation({
    mutationFn: (reply: Reply) => repliesApi.setHandled(reply.id, reply.handledAt === null),
    onSuccess: (reply) => {
      notify.success(t(reply.handledAt ? 'replies.marked' : 'replies.unmarked'));
      void queryClient.invalidateQueries({ queryKey: repliesKeys.all });
    },
    onError: (err) => notify.error(errorText(err, t)),
  });
  const actions = {
    onToggleHandled: (reply: Reply) => mark.mutate(reply),
    onAnswer: setAnswering,
    pendingId: mark.isPending ? (mark.variables?.id ?? null) : null,
  };
  const exportCsv = async () => {
    setExporting(true);
    try {
      await repliesApi.exportCsv(filter);
    } catch (err) {
      notify.error(errorText(err, t));
    } finally {
      setExporting(false);
    }
  };

  return (
    // On a phone the menu and support buttons float over the bottom: room for the last card's actions.
    <Stack gap="lg" pb={phone ? 80 : undefined}>
      <PageHeader
        title={t('nav.replies')}
        subtitle={t('replies.intro')}
        actions={
          <Button
            variant="default"
            leftSection={<IconDownload size={16} />}
            onClick={exportCsv}
            loading={exporting}
            disabled={items.length === 0}
            data-testid="replies-export"
          >
            {t('replies.export')}
          </Button>
        }
      />
      <Group gap="sm" wrap="wrap" align="flex-end" data-testid="replies-filters">
        <Select
          label={t('replies.filters.campaign')}
          placeholder={t('replies.filters.allCampaigns')}
          data={(campaigns.data?.items ?? []).map((c) => ({ value: c.id, label: c.name }))}
          value={campaignId}
          onChange={setCampaignId}
          clearable
          searchable
          w={phone ? '100%' : 240}
          data-testid="replies-filter-campaign"
        />
        <Select
          label={t('replies.filters.channel')}
          placeholder={t('replies.filters.allChannels')}
          data={REPLY_CHANNELS.map((c) => ({ value: c, label: t(`replies.channels.${c}`) }))}
          value={channel}
          onChange={(v) => setChannel(v as ReplyChannel | null)}
          clearable
          w={phone ? '100%' : 170}
          data-testid="replies-filter-channel"
        />
        <Select
          label={t('replies.filters.period')}
          data={PERIODS.map((p) => ({ value: p, label: t(`replies.periods.${p}`) }))}
          value={period}
          onChange={(v) => setPeriod((v as Period | null) ?? 'all')}
          allowDeselect={false}
          w={phone ? '100%' : 170}
          data-testid="replies-filter-period"
        />
        <Switch
          label={t('replies.filters.notHandled')}
          checked={onlyOpen}
          onChange={(e) => setOnlyOpen(e.currentTarget.checked)}
          mb={8}
          data-testid="replies-filter-open"
        />
      </Group>
      {replies.isError ? (
        <LoadErrorAlert error={replies.error} fallbackKey="loadError.replies" onRetry={() => replies.refetch()} />
      ) : replies.data && items.length === 0 ? (
        <EmptyState
          icon={<IconMessageReply size={28} />}
          title={t(filtered ? 'replies.emptyFiltered.title' : 'replies.empty.title')}
          body={t(filtered ? 'replies.emptyFiltered.body' : 'replies.empty.body')}
          data-testid="replies-empty"
        />
      ) : phone ? (
        <Stack gap="sm" data-testid="replies-cards">
          {items.map((reply) => (
            <ReplyCard key={reply.id} reply={reply} actions={actions} />
          ))}
        </Stack>
      ) : (
        <Paper withBorder radius="md">
          <DataTable
            columns={[
              { header: t('replies.columns.from') },
              { header: t('replies.columns.channel') },
              { header: t('replies.columns.text') },
              { header: t('replies.columns.receivedAt') },
              { header: t('replies.columns.campaign') },
              {},
            ]}
            rows={items}
            renderRow={(reply) => <ReplyRow key={reply.id} reply={reply} actions={actions} />}
            minWidth={900}
            verticalSpacing="sm"
            data-testid="replies-table"
          />
        </Paper>
      )}
      <MoreButton query={replies} label={t('replies.more')} data-testid="replies-more" />
      <AnswerDialog reply={answering} onClose={() => setAnswering(null)} />
    </Stack>
  );
}
