import type { WebhookEndpoint, WebhookEndpointWithSecret } from '@ecoa/shared';
import { ActionIcon, Badge, Button, Group, Menu, Paper, Stack, Switch, Text } from '@mantine/core';
import { IconDots, IconKey, IconListDetails, IconSend, IconTrash, IconWebhook } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../platform/errors';
import { notify } from '../../platform/notify';
import { AddButton } from '../../ui/AddButton';
import { openConfirmDialog } from '../../ui/ConfirmDialog';
import { SettingsCard } from '../../ui/SettingsCard';
import { DeliveryLogModal } from './DeliveryLogModal';
import { EndpointFormModal } from './EndpointFormModal';
import { webhooksKeys } from './queryKeys';
import { SecretModal } from './SecretModal';
import { webhooksApi } from './webhooksApi';

function EndpointRow({
  endpoint,
  onLog,
  onSecret,
}: {
  endpoint: WebhookEndpoint;
  onLog: (e: WebhookEndpoint) => void;
  onSecret: (e: WebhookEndpointWithSecret) => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: webhooksKeys.endpoints });
  const fail = (err: unknown) => notify.error(errorText(err, t, 'webhooks.failed'));
  const toggle = useMutation({
    mutationFn: (enabled: boolean) => webhooksApi.update(endpoint.id, { enabled }),
    onSuccess: refresh,
    onError: fail,
  });
  const test = useMutation({
    mutationFn: () => webhooksApi.sendTest(endpoint.id),
    onSuccess: () => notify.success(t('webhooks.testSent')),
    onError: fail,
  });
  const rotate = useMutation({
    mutationFn: () => webhooksApi.rotateSecret(endpoint.id),
    onSuccess: async (rotated) => {
      onSecret(rotated);
      await refresh();
    },
    onError: fail,
  });
  const remove = useMutation({
    mutationFn: () => webhooksApi.remove(endpoint.id),
    onSuccess: async () => {
      notify.success(t('webhooks.deleted'));
      await refresh();
    },
    onError: fail,
  });

  // Rotating and deleting cannot be taken back: both are asked first, the same way.
  const ask = (action: 'rotate' | 'delete', question: string, onConfirm: () => void) => () =>
    openConfirmDialog({
      centered: true,
      title: t(`webhooks.${action}`),
      body: question,
      confirmLabel: t(`webhooks.${action}Confirm`),
      cancelLabel: t('webhooks.cancel'),
      confirmTestId: `webhook-${action}-confirm`,
      onConfirm,
    });

  return (
    <Paper withBorder radius="md" p="sm" data-testid="webhook-row" data-enabled={endpoint.enabled || undefined}>
      <Group justify="space-between" wrap="nowrap" gap="sm" align="flex-start">
        <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
          <Group gap={8} wrap="wrap">
            <Text fw={600} size="sm" style={{ wordBreak: 'break-all' }} data-testid="webhook-row-url">
              {endpoint.url}
            </Text>
            {endpoint.disabledReason === 'failing' && (
              <Badge color="red" variant="light" size="sm" data-testid="webhook-row-failing">
                {t('webhooks.disabledFailing')}
              </Badge>
            )}
          </Group>
          {endpoint.description && (
            <Text size="xs" c="dimmed">
              {endpoint.description}
            </Text>
          )}
          <Group gap={4} wrap="wrap">
            {endpoint.events.map((type) => (
              <Badge key={type} size="xs" variant="outline" color="gray" tt="none" ff="monospace">
                {type}
              </Badge>
            ))}
          </Group>
        </Stack>
        <Group gap="xs" wrap="nowrap">
          <Switch
            checked={endpoint.enabled}
            onChange={(e) => toggle.mutate(e.currentTarget.checked)}
            disabled={toggle.isPending}
            aria-label={t('webhooks.enabled')}
            data-testid="webhook-row-enabled"
          />
          <Button
            size="xs"
            variant="default"
            leftSection={<IconListDetails size={14} />}
            onClick={() => onLog(endpoint)}
            data-testid="webhook-row-log"
          >
            {t('webhooks.log.open')}
          </Button>
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon
                variant="subtle"
                color="gray"
                aria-label={t('webhooks.actions')}
                data-testid="webhook-row-menu"
              >
                <IconDots size={18} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item
                leftSection={<IconSend size={14} />}
                onClick={() => test.mutate()}
                data-testid="webhook-row-test"
              >
                {t('webhooks.sendTest')}
              </Menu.Item>
              <Menu.Item
                leftSection={<IconKey size={14} />}
                onClick={ask('rotate', t('webhooks.rotateQuestion'), () => rotate.mutate())}
                data-testid="webhook-row-rotate"
              >
                {t('webhooks.rotate')}
              </Menu.Item>
              <Menu.Item
                color="red"
                leftSection={<IconTrash size={14} />}
                onClick={ask('delete', t('webhooks.deleteQuestion', { url: endpoint.url }), () => remove.mutate())}
                data-testid="webhook-row-delete"
              >
                {t('webhooks.delete')}
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </Group>
      </Group>
    </Paper>
  );
}

/**
 * `/configuracoes` → Webhooks: where Ecoa posts the account's events (Standard Webhooks,
 * signed): the endpoints, a new one (its secret shown once), rotate, enable/disable, delete,
 * a test event, and each one's delivery log with replays.
 */
export function WebhooksCard() {
  const { t } = useTranslation();
  const endpoints = useQuery({ queryKey: webhooksKeys.endpoints, queryFn: webhooksApi.list });
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<{ value: string; rotated: boolean } | null>(null);
  const [logOf, setLogOf] = useState<WebhookEndpoint | null>(null);

  return (
    <SettingsCard
      ns="webhooks"
      icon={<IconWebhook size={20} />}
      action={
        <AddButton onClick={() => setCreating(true)} data-testid="webhook-add">
          {t('webhooks.add')}
        </AddButton>
      }
      testId="webhooks"
      query={endpoints}
      isEmpty={(items) => items.length === 0}
      dialogs={
        <>
          <EndpointFormModal
            opened={creating}
            onClose={() => setCreating(false)}
            onCreated={(created) => {
              setCreating(false);
              setSecret({ value: created.secret, rotated: false });
            }}
          />
          <SecretModal
            secret={secret?.value ?? null}
            rotated={secret?.rotated ?? false}
            onClose={() => setSecret(null)}
          />
          <DeliveryLogModal endpoint={logOf} onClose={() => setLogOf(null)} />
        </>
      }
    >
      {(items) => (
        <Stack gap="xs" data-testid="webhooks-list">
          {items.map((endpoint) => (
            <EndpointRow
              key={endpoint.id}
              endpoint={endpoint}
              onLog={setLogOf}
              onSecret={(rotated) => setSecret({ value: rotated.secret, rotated: true })}
            />
          ))}
        </Stack>
      )}
    </SettingsCard>
  );
}
