import type { WebhookDelivery, WebhookEndpoint } from '@ecoa/shared';
import { Badge, Button, Group, Modal, ScrollArea, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../platform/errors';
import { intlLocale } from '../../platform/i18n';
import { notify } from '../../platform/notify';
import { type DataColumn, DataTable } from '../../ui/DataTable';
import { MoreButton } from '../../ui/MoreButton';
import { QueryContent } from '../../ui/QueryContent';
import { webhooksKeys } from './queryKeys';
import { webhooksApi } from './webhooksApi';

const STATUS_COLORS = { pending: 'yellow', succeeded: 'teal', failed: 'red' } as const;

/** A day ago, as a `datetime-local` value in the browser's zone. */
function dayAgo(): string {
  const d = new Date(Date.now() - 24 * 60 * 60 * 1000);
  d.setMinutes(d.getMinutes() - d.getTimezoneOffset());
  return d.toISOString().slice(0, 16);
}

/** An endpoint's delivery log (newest first, more on demand), replay one, or every failed since a date. */
export function DeliveryLogModal({ endpoint, onClose }: { endpoint: WebhookEndpoint | null; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const [since, setSince] = useState(dayAgo);
  const format = new Intl.DateTimeFormat(intlLocale(i18n.language), { dateStyle: 'short', timeStyle: 'medium' });
  const id = endpoint?.id ?? '';
  const log = useInfiniteQuery({
    queryKey: webhooksKeys.deliveries(id),
    queryFn: ({ pageParam }) => webhooksApi.deliveries(id, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled: endpoint !== null,
    refetchInterval: 5000,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: webhooksKeys.deliveries(id) });
  const replay = useMutation({
    mutationFn: (delivery: WebhookDelivery) => webhooksApi.replay(delivery.id),
    onSuccess: async () => {
      notify.success(t('webhooks.log.replayed'));
      await refresh();
    },
    onError: (err) => notify.error(errorText(err, t, 'webhooks.failed')),
  });
  const replaySince = useMutation({
    mutationFn: () => webhooksApi.replaySince(id, new Date(since).toISOString()),
    onSuccess: async ({ replayed }) => {
      notify.success(t('webhooks.log.replayedSince', { count: replayed }));
      await refresh();
    },
    onError: (err) => notify.error(errorText(err, t, 'webhooks.failed')),
  });
  const columns: DataColumn<WebhookDelivery>[] = [
    {
      header: t('webhooks.log.time'),
      cell: (d) => <Text size="xs">{format.format(new Date(d.lastAttemptAt ?? d.createdAt))}</Text>,
    },
    {
      header: t('webhooks.log.event'),
      cell: (d) => (
        <Text size="xs" ff="monospace">
          {d.eventType}
        </Text>
      ),
    },
    {
      header: t('webhooks.log.status'),
      cell: (d) => (
        <>
          <Badge size="sm" variant="light" color={STATUS_COLORS[d.status]}>
            {t(`webhooks.log.statuses.${d.status}`)}
          </Badge>
          <Text size="xs" c="dimmed">
            {t('webhooks.log.attempts', { count: d.attempts })}
          </Text>
        </>
      ),
    },
    {
      header: t('webhooks.log.answer'),
      cell: (d) => (
        <Tooltip
          label={d.lastError ?? d.lastResponse ?? '—'}
          multiline
          maw={420}
          disabled={!d.lastError && !d.lastResponse}
        >
          <Text size="xs" data-testid="webhook-delivery-code">
            {d.lastStatusCode ?? (d.lastError ? t('webhooks.log.noAnswer') : '—')}
          </Text>
        </Tooltip>
      ),
    },
    {
      header: t('webhooks.log.latency'),
      cell: (d) => <Text size="xs">{d.lastLatencyMs === null ? '—' : `${d.lastLatencyMs} ms`}</Text>,
    },
    {
      cell: (d) => (
        <Button
          size="compact-xs"
          variant="subtle"
          disabled={d.status === 'pending'}
          loading={replay.isPending && replay.variables?.id === d.id}
          onClick={() => replay.mutate(d)}
          data-testid="webhook-delivery-replay"
        >
          {t('webhooks.log.replay')}
        </Button>
      ),
    },
  ];

  return (
    <Modal
      opened={endpoint !== null}
      onClose={onClose}
      title={t('webhooks.log.title', { url: endpoint?.url ?? '' })}
      size="xl"
      centered
    >
      <Stack gap="md" data-testid="webhook-log">
        <Group align="flex-end" gap="sm" wrap="wrap">
          <TextInput
            type="datetime-local"
            label={t('webhooks.log.since')}
            value={since}
            onChange={(e) => setSince(e.currentTarget.value)}
            data-testid="webhook-replay-since-date"
          />
          <Button
            variant="light"
            leftSection={<IconRefresh size={16} />}
            loading={replaySince.isPending}
            disabled={!since}
            onClick={() => replaySince.mutate()}
            data-testid="webhook-replay-since"
          >
            {t('webhooks.log.replayFailedSince')}
          </Button>
        </Group>
        <QueryContent
          query={log}
          fallbackKey="webhooks.log.loadFailed"
          isEmpty={(data) => data.pages.every((p) => p.items.length === 0)}
          empty={
            <Text c="dimmed" ta="center" py="lg" data-testid="webhook-log-empty">
              {t('webhooks.log.empty')}
            </Text>
          }
        >
          {(data) => (
            <ScrollArea>
              <DataTable
                columns={columns}
                rows={data.pages.flatMap((p) => p.items)}
                rowKey={(d) => d.id}
                rowProps={(d) => ({ 'data-testid': 'webhook-delivery-row', 'data-status': d.status })}
                striped
                highlightOnHover
                verticalSpacing="xs"
                miw={640}
              />
            </ScrollArea>
          )}
        </QueryContent>
        <MoreButton query={log} label={t('webhooks.log.more')} size="xs" />
      </Stack>
    </Modal>
  );
}
