import type { MessageStatus } from '@ecoa/shared';
import { Alert, Badge, Group, Loader, Stack, Text, Timeline } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { intlLocale } from '../../platform/i18n';
import { channelsApi, messageKey } from './channelsApi';
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

/** A message's status, live: polled each second until the carrier's last word (delivered, failed…). */
export function MessageStatusView({ id }: { id: string }) {
  const { t, i18n } = useTranslation();
  const query = useQuery({
    queryKey: messageKey(id),
    queryFn: () => channelsApi.message(id),
    refetchInterval: (q) => (q.state.data && FINAL.has(q.state.data.status) ? false : 1000),
  });
  const message = query.data;
  if (!message) return <Loader size="sm" />;
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
        {!FINAL.has(message.status) && <Loader size="xs" />}
        <Text size="sm" c="dimmed">
          {t('channels.testSend.cost', { count: message.parts })}
        </Text>
      </Group>
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
