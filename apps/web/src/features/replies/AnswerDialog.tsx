import {
  analyzeSms,
  CHANNEL_CREDIT_TYPE,
  REPLY_ANSWER_MAX,
  type Reply,
  type ReplyAnswerInput,
  replyAnswerSchema,
} from '@ecoa/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { translateValidation } from '../../platform/errors';
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
  // The server's rules for an answer (`replyAnswerSchema`); sending stays disabled while it is blank.
  const form = useForm<z.input<typeof replyAnswerSchema>, unknown, ReplyAnswerInput>({
    resolver: zodResolver(replyAnswerSchema),
    defaultValues: { text: '' },
  });
  const text = form.watch('text');
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
    form.reset({ text: '' });
    send.reset();
    onClose();
  };
  const closedWindow = reply !== null && !reply.answerable;
  const submit = form.handleSubmit((values) => reply && send.mutate({ id: reply.id, text: values.text }));

  return (
    <Modal opened={opened} onClose={close} title={t('replies.answer.title')} centered data-testid="answer-dialog">
      {reply && (
        <form onSubmit={submit} noValidate>
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
                  error={translateValidation(t, form.formState.errors.text?.message)}
                  data-testid="answer-text"
                  data-autofocus
                  {...form.register('text')}
                />
                {channel === 'sms_short' && (
                  <SmsCounter text={text} onChange={(fixed) => form.setValue('text', fixed, { shouldDirty: true })} />
                )}
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
              confirmTestId="answer-submit"
              pending={send.isPending}
              disabled={closedWindow || text.trim().length === 0}
            />
          </Stack>
        </form>
      )}
    </Modal>
  );
}
