import { type Reply, ROUTES } from '@ecoa/shared';
import { Anchor, Badge, Button, Group, Paper, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconArrowBackUp, IconCheck, IconRotate } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useDateTime } from '../../platform/i18n';
import { displayPhone } from './format';

export type ReplyActions = {
  onToggleHandled: (reply: Reply) => void;
  onAnswer: (reply: Reply) => void;
  /** The reply whose mark is being saved. */
  pendingId: string | null;
};

const CHANNEL_COLOR = { sms: 'blue', whatsapp: 'teal', rcs: 'grape' } as const;

function ChannelBadge({ reply }: { reply: Reply }) {
  const { t } = useTranslation();
  return (
    <Badge variant="light" color={CHANNEL_COLOR[reply.channel]} tt="none">
      {t(`replies.channels.${reply.channel}`)}
    </Badge>
  );
}

/** The text, with the opt-out badge when it was an opt-out word. */
function ReplyText({ reply }: { reply: Reply }) {
  const { t } = useTranslation();
  return (
    <Stack gap={4} align="flex-start">
      <Text size="sm" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }} data-testid="reply-text">
        {reply.text}
      </Text>
      {reply.optOut && (
        <Tooltip label={t('replies.optOutHint')} multiline w={240}>
          <Badge color="red" variant="light" size="sm" data-testid="reply-opt-out">
            {t('replies.optOut')}
          </Badge>
        </Tooltip>
      )}
    </Stack>
  );
}

function CampaignLink({ reply }: { reply: Reply }) {
  const { t } = useTranslation();
  if (!reply.campaign)
    return (
      <Text size="sm" c="dimmed">
        {reply.messageId ? t('replies.testSend') : '—'}
      </Text>
    );
  // An API message's batch is a hidden campaign row with no page of its own: say where it came from.
  if (reply.campaign.kind === 'api')
    return (
      <Stack gap={0} data-testid="reply-campaign">
        <Text size="sm">{t('replies.apiSend')}</Text>
        {reply.externalId && (
          <Text size="xs" c="dimmed" ff="monospace" data-testid="reply-external-id">
            {reply.externalId}
          </Text>
        )}
      </Stack>
    );
  return (
    <Anchor component={Link} to={`${ROUTES.campaigns}/${reply.campaign.id}`} size="sm" data-testid="reply-campaign">
      {reply.campaign.name}
    </Anchor>
  );
}

function Who({ reply }: { reply: Reply }) {
  return (
    <>
      <Text size="sm" fw={600} data-testid="reply-phone" style={{ whiteSpace: 'nowrap' }}>
        {displayPhone(reply.phone)}
      </Text>
      {reply.contactName && (
        <Text size="xs" c="dimmed" data-testid="reply-contact">
          {reply.contactName}
        </Text>
      )}
    </>
  );
}

function Actions({ reply, actions }: { reply: Reply; actions: ReplyActions }) {
  const { t } = useTranslation();
  const handled = reply.handledAt !== null;
  const answerHint = reply.answerable
    ? null
    : t(reply.channel === 'whatsapp' ? 'replies.answer.windowClosed' : 'replies.answer.notAnswerable');
  return (
    <Group gap="xs" wrap="wrap" justify="flex-end">
      <Tooltip label={answerHint} disabled={!answerHint} multiline w={260}>
        <Button
          size="compact-sm"
          variant="light"
          leftSection={<IconArrowBackUp size={14} />}
          onClick={() => actions.onAnswer(reply)}
          data-testid="reply-answer"
          data-answerable={reply.answerable}
        >
          {t('replies.actions.answer')}
        </Button>
      </Tooltip>
      <Button
        size="compact-sm"
        variant={handled ? 'subtle' : 'default'}
        color={handled ? 'gray' : undefined}
        leftSection={handled ? <IconRotate size={14} /> : <IconCheck size={14} />}
        loading={actions.pendingId === reply.id}
        onClick={() => actions.onToggleHandled(reply)}
        data-testid="reply-handle"
      >
        {t(handled ? 'replies.actions.unhandle' : 'replies.actions.handle')}
      </Button>
    </Group>
  );
}

function HandledBadge({ reply }: { reply: Reply }) {
  const { t } = useTranslation();
  if (!reply.handledAt) return null;
  return (
    <Badge color="gray" variant="outline" size="sm" data-testid="reply-handled">
      {t('replies.handled')}
    </Badge>
  );
}

export function ReplyRow({ reply, actions }: { reply: Reply; actions: ReplyActions }) {
  const time = useDateTime();
  return (
    <Table.Tr data-testid="reply-row" data-reply-id={reply.id} style={{ opacity: reply.handledAt ? 0.7 : 1 }}>
      <Table.Td>
        <Who reply={reply} />
      </Table.Td>
      <Table.Td>
        <ChannelBadge reply={reply} />
      </Table.Td>
      <Table.Td maw={360}>
        <ReplyText reply={reply} />
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        <Text size="sm">{time(reply.receivedAt)}</Text>
        <HandledBadge reply={reply} />
      </Table.Td>
      <Table.Td>
        <CampaignLink reply={reply} />
      </Table.Td>
      <Table.Td>
        <Actions reply={reply} actions={actions} />
      </Table.Td>
    </Table.Tr>
  );
}

/** On a phone: one card per reply. */
export function ReplyCard({ reply, actions }: { reply: Reply; actions: ReplyActions }) {
  const time = useDateTime();
  return (
    <Paper withBorder radius="md" p="sm" data-testid="reply-row" data-reply-id={reply.id}>
      <Stack gap={6}>
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <div style={{ minWidth: 0 }}>
            <Who reply={reply} />
          </div>
          <ChannelBadge reply={reply} />
        </Group>
        <ReplyText reply={reply} />
        <Group gap="xs" wrap="wrap">
          <Text size="xs" c="dimmed">
            {time(reply.receivedAt)}
          </Text>
          <CampaignLink reply={reply} />
          <HandledBadge reply={reply} />
        </Group>
        <Actions reply={reply} actions={actions} />
      </Stack>
    </Paper>
  );
}
