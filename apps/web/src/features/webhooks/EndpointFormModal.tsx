import {
  WEBHOOK_DESCRIPTION_MAX,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_URL_MAX,
  type WebhookEndpointCreate,
  type WebhookEndpointWithSecret,
  type WebhookEventType,
  webhookEndpointFormSchema,
} from '@ecoa/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { Checkbox, Modal, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { errorText } from '../../platform/errors';
import { DialogButtons } from '../../ui/DialogButtons';
import { webhooksKeys } from './queryKeys';
import { webhooksApi } from './webhooksApi';

type FormValues = z.input<typeof webhookEndpointFormSchema>;
type FormOutput = z.output<typeof webhookEndpointFormSchema>;
const DEFAULTS: FormValues = { url: 'https://', description: '', events: ['message.status', 'message.reply'] };

/** A new endpoint: its URL, the events it takes, a note; the answer carries the secret (shown next). */
export function EndpointFormModal({
  opened,
  onClose,
  onCreated,
}: {
  opened: boolean;
  onClose: () => void;
  onCreated: (endpoint: WebhookEndpointWithSecret) => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  // The shared form rules: any refusal of the URL reads "enter a valid https:// address".
  const form = useForm<FormValues, unknown, FormOutput>({
    resolver: zodResolver(webhookEndpointFormSchema),
    defaultValues: DEFAULTS,
  });
  const create = useMutation({
    mutationFn: (input: WebhookEndpointCreate) => webhooksApi.create(input),
    onSuccess: async (endpoint) => {
      await queryClient.invalidateQueries({ queryKey: webhooksKeys.endpoints });
      form.reset(DEFAULTS);
      onCreated(endpoint);
    },
  });
  const submit = form.handleSubmit((values) =>
    create.mutate({ url: values.url, events: values.events, description: values.description || undefined }),
  );
  const close = () => {
    create.reset();
    onClose();
  };

  return (
    <Modal opened={opened} onClose={close} title={t('webhooks.form.title')} size="lg" centered>
      <form onSubmit={submit} noValidate data-testid="webhook-form">
        <Stack gap="md">
          <TextInput
            label={t('webhooks.form.url')}
            description={t('webhooks.form.urlHint')}
            placeholder="https://erp.example.com/ecoa/webhooks"
            maxLength={WEBHOOK_URL_MAX}
            error={form.formState.errors.url ? t('webhooks.form.urlRequired') : undefined}
            data-testid="webhook-url"
            {...form.register('url')}
          />
          <Controller
            control={form.control}
            name="events"
            render={({ field, fieldState }) => (
              <Checkbox.Group
                label={t('webhooks.form.events')}
                value={field.value}
                onChange={(v) => field.onChange(v as WebhookEventType[])}
                error={fieldState.error ? t('webhooks.form.eventsRequired') : undefined}
                data-testid="webhook-events"
              >
                <SimpleGrid cols={{ base: 1, sm: 2 }} mt="xs" spacing="xs">
                  {WEBHOOK_EVENT_TYPES.map((type) => (
                    <Checkbox
                      key={type}
                      value={type}
                      label={
                        <Stack gap={0}>
                          <Text size="sm" ff="monospace">
                            {type}
                          </Text>
                          <Text size="xs" c="dimmed">
                            {t(`webhooks.events.${type}`)}
                          </Text>
                        </Stack>
                      }
                      data-testid={`webhook-event-${type}`}
                    />
                  ))}
                </SimpleGrid>
              </Checkbox.Group>
            )}
          />
          <TextInput
            label={t('webhooks.form.description')}
            placeholder={t('webhooks.form.descriptionPlaceholder')}
            maxLength={WEBHOOK_DESCRIPTION_MAX}
            data-testid="webhook-description"
            {...form.register('description')}
          />
          {create.isError && (
            <Text c="red" size="sm" data-testid="webhook-form-error">
              {errorText(create.error, t, 'webhooks.form.failed')}
            </Text>
          )}
          <DialogButtons
            cancelLabel={t('webhooks.cancel')}
            onCancel={close}
            confirmLabel={t('webhooks.form.save')}
            confirmTestId="webhook-save"
            pending={create.isPending}
          />
        </Stack>
      </form>
    </Modal>
  );
}
