import {
  API_KEY_NAME_MAX,
  API_SCOPES,
  type ApiKeyCreated,
  type ApiScope,
  createApiKeySchema,
  validationKeyOf,
} from '@ecoa/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Checkbox, Code, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { errorText } from '../../platform/errors';
import { DialogButtons } from '../../ui/DialogButtons';
import { SecretOnce } from '../../ui/SecretOnce';
import { apiKeysApi } from './apiKeysApi';
import { apiKeysKeys } from './queryKeys';

type Values = z.input<typeof createApiKeySchema>;

/** A scope's translation key part: `campaigns:read` → `campaigns_read`. */
export const scopeKey = (scope: ApiScope) => scope.replace(':', '_');

/** The key, once: to copy now, with the warning that it will not be shown again. */
function CreatedKey({ created, onDone }: { created: ApiKeyCreated; onDone: () => void }) {
  const { t } = useTranslation();
  return (
    <SecretOnce
      value={created.key}
      title={t('apiKeys.created.title')}
      warning={t('apiKeys.created.warning')}
      labels={{ copy: t('apiKeys.created.copy'), copied: t('apiKeys.created.copied'), done: t('apiKeys.created.done') }}
      onDone={onDone}
      testIds={{ root: 'api-key-created', value: 'api-key-value', copy: 'api-key-copy', done: 'api-key-done' }}
    />
  );
}

/** Name a key and choose what it may do; then show it once. */
export function CreateApiKeyModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const form = useForm<Values>({
    resolver: zodResolver(createApiKeySchema),
    reValidateMode: 'onSubmit',
    defaultValues: { name: '', scopes: [] },
  });
  const create = useMutation({
    mutationFn: (input: Values) => apiKeysApi.create(input),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: apiKeysKeys.all }),
  });
  const close = () => {
    if (create.isPending) return;
    form.reset({ name: '', scopes: [] });
    create.reset();
    onClose();
  };
  const submit = form.handleSubmit((values) => create.mutate(values));
  const { errors } = form.formState;
  // The shared schema's messages are the API's own rules (`validation.apiKeyName`, `…apiKeyScopes`).
  const fieldError = (message: string | undefined) => {
    const key = validationKeyOf(message);
    return message ? t(key ? `validation.${key}` : 'validation.invalid') : undefined;
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      size="lg"
      title={t(create.data ? 'apiKeys.created.heading' : 'apiKeys.create.title')}
      closeOnClickOutside={!create.data}
      data-testid="api-key-modal"
    >
      {create.data ? (
        <CreatedKey created={create.data} onDone={close} />
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            {create.isError && (
              <Alert color="red" data-testid="api-key-create-error">
                {errorText(create.error, t, 'apiKeys.create.failed')}
              </Alert>
            )}
            <TextInput
              label={t('apiKeys.create.name')}
              description={t('apiKeys.create.nameHint')}
              maxLength={API_KEY_NAME_MAX}
              data-autofocus
              error={fieldError(errors.name?.message)}
              data-testid="api-key-name"
              {...form.register('name')}
            />
            <Controller
              control={form.control}
              name="scopes"
              render={({ field }) => (
                <Checkbox.Group
                  label={t('apiKeys.create.scopes')}
                  description={t('apiKeys.create.scopesHint')}
                  value={field.value as string[]}
                  onChange={field.onChange}
                  error={fieldError(errors.scopes?.message)}
                  data-testid="api-key-scopes"
                >
                  <Stack gap="sm" mt="xs">
                    {API_SCOPES.map((scope) => (
                      <Checkbox
                        key={scope}
                        value={scope}
                        label={
                          <Text size="sm" fw={600} component="span">
                            <Code>{scope}</Code> {t(`apiKeys.scopes.${scopeKey(scope)}.label`)}
                          </Text>
                        }
                        description={t(`apiKeys.scopes.${scopeKey(scope)}.help`)}
                        data-testid={`api-key-scope-${scopeKey(scope)}`}
                      />
                    ))}
                  </Stack>
                </Checkbox.Group>
              )}
            />
            <DialogButtons
              cancelLabel={t('apiKeys.cancel')}
              onCancel={close}
              cancelDisabled={create.isPending}
              confirmLabel={t('apiKeys.create.submit')}
              confirmTestId="api-key-submit"
              pending={create.isPending}
            />
          </Stack>
        </form>
      )}
    </Modal>
  );
}
