import { analyzeSms, CHANNEL_CREDIT_TYPE, REPLY_ANSWER_MAX, type Reply } from '@ecoa/shared';
import { Alert, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSubmissionKey } from '../../platform/idempotency';
import { notify } from '../../platform/notify';
import { DialogButtons } from '../../ui/DialogButtons';
import { SendErrorAlert, SmsCounter } from '../channels';
import { creditsApi, refreshMoney } from '../credits';
import { creditsKeys } from '../credits/queryKeys';
import { displayPhone } from './format';
import { repliesKeys } from './queryKeys';
import { repliesApi } from './repliesApi';

/**
 * Answers one reply on its channel, paid like a test send: an SMS reply by SMS (parts counted as
 * the server charges), a WhatsApp one by a text while its 24-hour window is open (else the
 * dialog says why it cannot, and sends nothing).
 */
export function AnswerDialog({ reply, onClose }: { reply: Reply | null; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const opened = reply !== null;
  const channel = reply?.channel === 'whatsapp' ? 'whatsapp' : 'sms_short';
  const type = CHANNEL_CREDIT_TYPE[channel];
  const cost = channel === 'sms_short' ? Math.max(1, analyzeSms(text).parts.length) : 1;
  const balance = useQuery({ queryKey: creditsKeys.balance, queryFn: creditsApi.balance, enabled: opened });
  const available = balance.data?.credits[type]?.available;
  const submissionKey = useSubmissionKey();
  const send = useMutation({
    mutationFn: (input: { id: string; text: string }) =>
      repliesApi.answer(input.id, input.text, submissionKey.keyFor(input)),
    onSuccess: () => {
      submissionKey.done();
      notify.success(t('replies.answer.sent'));
      void refreshMoney(queryClient);
      void queryClient.invalidateQueries({ queryKey: repliesKeys.all });
      close();
    },
  });
  const close = () => {
    setText('');
    send.reset();
    onClose();
  };
  const trimmed = text.trim();
  const closedWindow = reply !== null && !reply.answerable;

  return (
    <Modal opened={opened} onClose={close} title={t('replies.answer.title')} centered data-testid="answer-dialog">
      {reply && (
        <Stack>
          <Text size="sm" c="dimmed">
            {t('replies.answer.to', {
              who: reply.contactName ?? displayPhone(reply.phone),
              channel: t(`replies.channels.${reply.channel}`),
            })}
          </Text>
          <Text size="sm" fs="italic" style={{ overflowWrap: 'anywhere' }}>
            “{reply.text}”
          </Text>
          {closedWindow ? (
            <Alert color="yellow" variant="light" data-testid="answer-window-closed">
              {t(reply.channel === 'whatsapp' ? 'replies.answer.windowClosed' : 'replies.answer.notAnswerable')}
            </Alert>
          ) : (
            <>
              <Textarea
                label={t('replies.answer.text')}
                autosize
                minRows={3}
                maxLength={REPLY_ANSWER_MAX}
                value={text}
                onChange={(e) => setText(e.currentTarget.value)}
                data-testid="answer-text"
                data-autofocus
              />
              {channel === 'sms_short' && <SmsCounter text={text} onChange={setText} />}
              <Text size="sm" c="dimmed" data-testid="answer-cost">
                {t('replies.answer.cost', {
                  count: cost,
                  type: t(`credits.types.${type}`),
                  available: available ?? '…',
                })}
              </Text>
            </>
          )}
          <SendErrorAlert
            error={send.error}
            creditType={type}
            fallbackKey="replies.answer.failed"
            data-testid="answer-error"
          />
          <DialogButtons
            cancelLabel={t('replies.answer.cancel')}
            onCancel={close}
            confirmLabel={t('replies.answer.send')}
            onConfirm={() => send.mutate({ id: reply.id, text: trimmed })}
            confirmTestId="answer-submit"
            pending={send.isPending}
            disabled={closedWindow || trimmed.length === 0}
          />
        </Stack>
      )}
    </Modal>
  );
}
