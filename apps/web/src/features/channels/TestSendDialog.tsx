import {
  CHANNEL_CREDIT_TYPE,
  CHANNELS,
  type Channel,
  type TestSendInput,
  type TestSendRequest,
  testSendRequestSchema,
} from '@ecoa/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { firstErrorMessage, schemaRefusalText } from '../../platform/errors';
import { useSubmissionKey } from '../../platform/idempotency';
import { DialogButtons } from '../../ui/DialogButtons';
import { FormSelect } from '../../ui/FormFields';
import { creditsApi } from '../credits';
import { creditsKeys } from '../credits/queryKeys';
import { settingsApi } from '../settings';
import { settingsKeys } from '../settings/queryKeys';
import { channelsApi } from './channelsApi';
import { MessageStatusView } from './MessageStatusView';
import { SendErrorAlert } from './SendErrorAlert';
import { SmsCounter } from './SmsCounter';
import { type VoiceContent, VoiceFields } from './VoiceFields';

type Draft = {
  channel: Channel;
  to: string;
  text: string;
  voice: VoiceContent;
  options: string;
  integrationUrl: string;
  templateName: string;
  templateLanguage: string;
  templateParams: string;
};

/** What the form holds, as the API's test-send request for its channel. */
export function toRequest(d: Draft): TestSendRequest {
  const base = { channel: d.channel, to: d.to };
  switch (d.channel) {
    case 'sms_short':
    case 'sms_flash':
      return { ...base, text: d.text };
    case 'rcs':
      return { ...base, rcs: { text: d.text } };
    case 'voice_torpedo':
    case 'ura': {
      const prompt = d.voice.mode === 'audio' ? { audioId: d.voice.audioId ?? undefined } : { tts: d.voice.tts };
      if (d.channel === 'voice_torpedo') return { ...base, ...prompt };
      const options = d.options.replace(/[^0-9*#]/g, '').split('');
      return {
        ...base,
        ...prompt,
        ...(options.length > 0 ? { options } : {}),
        ...(d.integrationUrl.trim() ? { integrationUrl: d.integrationUrl.trim() } : {}),
      };
    }
    case 'whatsapp':
      return {
        ...base,
        template: {
          name: d.templateName,
          language: d.templateLanguage,
          params: d.templateParams
            .split('\n')
            .map((p) => p.trim())
            .filter(Boolean),
        },
      };
  }
}

/** The form's rules: what it holds, as the request, checked by the server's test-send schema. */
const testSendFormSchema = z.custom<Draft>().transform(toRequest).pipe(testSendRequestSchema);

/**
 * "Send a test": one message on any channel to one number (the user's own phone by default),
 * through the real adapter and paid in credits of that channel; then its status, live.
 */
export function TestSendDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  // The server's test-send schema judges the request before it is sent (its refusal shown below,
  // in the server's words for it, until the next try); the server's own checks come after.
  const form = useForm<Draft, unknown, TestSendInput>({
    resolver: zodResolver(testSendFormSchema),
    reValidateMode: 'onSubmit',
    defaultValues: {
      channel: 'sms_short',
      to: '',
      text: '',
      voice: { mode: 'tts', tts: '', audioId: null },
      options: '12',
      integrationUrl: '',
      templateName: '',
      templateLanguage: 'pt_BR',
      templateParams: '',
    },
  });
  const [channel, text] = form.watch(['channel', 'text']);
  /** The message sent, shown live; "send again" goes back to the form as it was. */
  const [sentId, setSentId] = useState<string | null>(null);
  // The user's own mobile phone is the natural first recipient of a test.
  const profile = useQuery({ queryKey: settingsKeys.profile, queryFn: settingsApi.profile, enabled: opened });
  const ownPhone = profile.data?.mobilePhone;
  useEffect(() => {
    if (ownPhone && !form.getValues('to')) form.setValue('to', ownPhone);
  }, [ownPhone, form]);
  const balance = useQuery({ queryKey: creditsKeys.balance, queryFn: creditsApi.balance, enabled: opened });
  const submissionKey = useSubmissionKey();
  const send = useMutation({
    mutationFn: (request: TestSendInput) => channelsApi.testSend(request, submissionKey.keyFor(request)),
    onSuccess: ({ id }) => {
      submissionKey.done();
      setSentId(id);
      void queryClient.invalidateQueries({ queryKey: creditsKeys.balance });
    },
  });
  const type = CHANNEL_CREDIT_TYPE[channel];
  const available = balance.data?.credits[type]?.available;
  const close = () => {
    setSentId(null);
    send.reset();
    onClose();
  };
  const isSms = channel === 'sms_short' || channel === 'sms_flash';
  const refusal = firstErrorMessage(form.formState.errors);

  return (
    <Modal opened={opened} onClose={close} title={t('channels.testSend.title')} size="lg">
      <div data-testid="test-send-dialog">
        {sentId ? (
          <Stack>
            <MessageStatusView id={sentId} />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setSentId(null)} data-testid="test-send-again">
                {t('channels.testSend.again')}
              </Button>
              <Button onClick={close} data-testid="test-send-close">
                {t('channels.testSend.close')}
              </Button>
            </Group>
          </Stack>
        ) : (
          <form onSubmit={form.handleSubmit((request) => send.mutate(request))} noValidate>
            <Stack>
              <FormSelect
                control={form.control}
                name="channel"
                label={t('channels.testSend.channel')}
                data={CHANNELS.map((c) => ({ value: c, label: t(`channels.names.${c}`) }))}
                allowDeselect={false}
                data-testid="test-send-channel"
              />
              <TextInput
                label={t('channels.testSend.to')}
                description={t('channels.testSend.toHint')}
                placeholder="(11) 91234-5678"
                inputMode="tel"
                data-testid="test-send-to"
                {...form.register('to')}
              />
              {(isSms || channel === 'rcs') && (
                <Stack gap={4}>
                  <Textarea
                    label={t('channels.testSend.text')}
                    autosize
                    minRows={3}
                    maxRows={8}
                    data-testid="test-send-text"
                    {...form.register('text')}
                  />
                  {isSms && <SmsCounter text={text} onChange={(fixed) => form.setValue('text', fixed)} />}
                </Stack>
              )}
              {(channel === 'voice_torpedo' || channel === 'ura') && (
                <Controller
                  control={form.control}
                  name="voice"
                  render={({ field }) => <VoiceFields value={field.value} onChange={field.onChange} />}
                />
              )}
              {channel === 'ura' && (
                <Group grow align="flex-start">
                  <TextInput
                    label={t('channels.testSend.options')}
                    description={t('channels.testSend.optionsHint')}
                    data-testid="test-send-options"
                    {...form.register('options')}
                  />
                  <TextInput
                    label={t('channels.testSend.integrationUrl')}
                    description={t('channels.testSend.integrationUrlHint')}
                    placeholder="https://"
                    data-testid="test-send-integration"
                    {...form.register('integrationUrl')}
                  />
                </Group>
              )}
              {channel === 'whatsapp' && (
                <>
                  <Group grow>
                    <TextInput
                      label={t('channels.testSend.templateName')}
                      placeholder="boas_vindas"
                      data-testid="test-send-template"
                      {...form.register('templateName')}
                    />
                    <TextInput
                      label={t('channels.testSend.templateLanguage')}
                      data-testid="test-send-language"
                      {...form.register('templateLanguage')}
                    />
                  </Group>
                  <Textarea
                    label={t('channels.testSend.templateParams')}
                    description={t('channels.testSend.templateParamsHint', { first: '{{1}}', second: '{{2}}' })}
                    autosize
                    minRows={2}
                    data-testid="test-send-params"
                    {...form.register('templateParams')}
                  />
                </>
              )}
              <Text size="sm" c="dimmed" data-testid="test-send-credits">
                {t('channels.testSend.credits', {
                  type: t(`credits.types.${type}`),
                  available: available ?? '…',
                })}
              </Text>
              {refusal !== undefined ? (
                <Alert color="red" variant="light" data-testid="test-send-error">
                  {schemaRefusalText(t, refusal)}
                </Alert>
              ) : (
                <SendErrorAlert
                  error={send.error}
                  creditType={type}
                  fallbackKey="channels.testSend.failed"
                  data-testid="test-send-error"
                />
              )}
              <DialogButtons
                cancelLabel={t('channels.testSend.close')}
                onCancel={close}
                cancelTestId="test-send-cancel"
                confirmLabel={t('channels.testSend.send')}
                confirmTestId="test-send-submit"
                pending={send.isPending}
              />
            </Stack>
          </form>
        )}
      </div>
    </Modal>
  );
}
