import type { MessageStatus } from '@ecoa/shared';
import { Alert, Badge, Group, Loader, Stack, Text, Timeline } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { intlLocale } from '../../platform/i18n';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { channelsApi } from './channelsApi';
import { channelsKeys } from './queryKeys';
import { reasonText } from './reasons';

const FINAL: ReadonlySet<MessageStatus> = new Set([
  'delivered',
  'failed',
  'expired',
  'unknown',
  'opted_out',
  'canceled',
]);

export const STATUS_COLOR: Record<MessageStatus, string> = {
  queued: 'gray',
  submitting: 'blue',
  sent: 'blue',
  delivered: 'teal',
  failed: 'red',
  expired: 'orange',
  unknown: 'yellow',
  opted_out: 'gray',
  canceled: 'gray',
};

/**
 * How often to ask again about a message not final yet: each second while the carrier usually
 * answers, then less often (a receipt for a phone that is off comes hours later).
 */
export function messagePollInterval(createdAt: string, now = Date.now()): number {
  const age = now - Date.parse(createdAt);
  if (Number.isNaN(age) || age < 30_000) return 1_000;
  return age < 5 * 60_000 ? 5_000 : 30_000;
}

/**
 * A message's status, live until the carrier's last word (delivered, failed…). A failed read stops
 * the polling and says so, with a retry: never a spinner that turns for ever.
 */
export function MessageStatusView({ id }: { id: string }) {
  const { t, i18n } = useTranslation();
  const query = useQuery({
    queryKey: channelsKeys.message(id),
    queryFn: () => channelsApi.message(id),
    refetchInterval: (q) => {
      if (q.state.status === 'error') return false;
      const m = q.state.data;
      if (!m) return 1_000;
      return FINAL.has(m.status) ? false : messagePollInterval(m.createdAt);
    },
  });
  const message = query.data;
  const failed = query.isError && (
    <LoadErrorAlert query={query} fallbackKey="loadError.messageStatus" data-testid="message-status-error" />
  );
  if (!message) return failed || <Loader size="sm" data-testid="message-status-loading" />;
  const time = (iso: string) =>
    new Date(iso).toLocaleTimeString(intlLocale(i18n.language), {
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
  return (
    <Stack gap="sm" data-testid="message-status">
      <Group gap="xs">
        <Badge
          color={STATUS_COLOR[message.status]}
          size="lg"
          data-testid="message-status-badge"
          data-status={message.status}
        >
          {t(`channels.statuses.${message.status}`)}
        </Badge>
        {!FINAL.has(message.status) && !query.isError && <Loader size="xs" data-testid="message-status-spinner" />}
        <Text size="sm" c="dimmed">
          {t('channels.testSend.cost', { count: message.parts })}
        </Text>
      </Group>
      {failed}
      {message.reason && (
        <Alert color={STATUS_COLOR[message.status]} variant="light" data-testid="message-reason">
          {reasonText(t, message.reason)}
        </Alert>
      )}
      <Timeline bulletSize={12} lineWidth={2} active={message.events.length - 1}>
        {message.events.map((event) => (
          <Timeline.Item
            key={`${event.status}-${event.at}-${event.digits ?? ''}`}
            title={t(`channels.statuses.${event.status}`)}
          >
            <Text size="xs" c="dimmed">
              {time(event.at)}
              {event.digits !== undefined ? ` · ${t('channels.testSend.digit', { digit: event.digits })}` : ''}
            </Text>
          </Timeline.Item>
        ))}
      </Timeline>
    </Stack>
  );
}
