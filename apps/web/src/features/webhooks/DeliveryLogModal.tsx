import type { WebhookDelivery, WebhookEndpoint } from '@ecoa/shared';
import { Badge, Button, Group, Loader, Modal, ScrollArea, Stack, Table, Text, TextInput, Tooltip } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../platform/errors';
import { intlLocale } from '../../platform/i18n';
import { notify } from '../../platform/notify';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
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
  const items = log.data?.pages.flatMap((p) => p.items) ?? [];

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
        {log.isPending ? (
          <Group justify="center" py="lg">
            <Loader size="sm" />
          </Group>
        ) : log.isError ? (
          <LoadErrorAlert error={log.error} fallbackKey="webhooks.log.loadFailed" onRetry={() => void log.refetch()} />
        ) : items.length === 0 ? (
          <Text c="dimmed" ta="center" py="lg" data-testid="webhook-log-empty">
            {t('webhooks.log.empty')}
          </Text>
        ) : (
          <ScrollArea>
            <Table striped highlightOnHover verticalSpacing="xs" miw={640}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('webhooks.log.time')}</Table.Th>
                  <Table.Th>{t('webhooks.log.event')}</Table.Th>
                  <Table.Th>{t('webhooks.log.status')}</Table.Th>
                  <Table.Th>{t('webhooks.log.answer')}</Table.Th>
                  <Table.Th>{t('webhooks.log.latency')}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((d) => (
                  <Table.Tr key={d.id} data-testid="webhook-delivery-row" data-status={d.status}>
                    <Table.Td>
                      <Text size="xs">{format.format(new Date(d.lastAttemptAt ?? d.createdAt))}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="xs" ff="monospace">
                        {d.eventType}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Badge size="sm" variant="light" color={STATUS_COLORS[d.status]}>
                        {t(`webhooks.log.statuses.${d.status}`)}
                      </Badge>
                      <Text size="xs" c="dimmed">
                        {t('webhooks.log.attempts', { count: d.attempts })}
                      </Text>
                    </Table.Td>
                    <Table.Td>
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
                    </Table.Td>
                    <Table.Td>
                      <Text size="xs">{d.lastLatencyMs === null ? '—' : `${d.lastLatencyMs} ms`}</Text>
                    </Table.Td>
                    <Table.Td>
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
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        )}
        {log.hasNextPage && (
          <Group justify="center">
            <Button
              variant="default"
              size="xs"
              loading={log.isFetchingNextPage}
              onClick={() => void log.fetchNextPage()}
            >
              {t('webhooks.log.more')}
            </Button>
          </Group>
        )}
      </Stack>
    </Modal>
  );
}
