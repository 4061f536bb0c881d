import type { ApiKey } from '@ecoa/shared';
import { ActionIcon, Badge, Code, Group, Text, Tooltip } from '@mantine/core';
import { IconKey, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../platform/errors';
import { useDateTime } from '../../platform/i18n';
import { notify } from '../../platform/notify';
import { AddButton } from '../../ui/AddButton';
import { openConfirmDialog } from '../../ui/ConfirmDialog';
import { type DataColumn, DataTable } from '../../ui/DataTable';
import { SettingsCard } from '../../ui/SettingsCard';
import { apiKeysApi } from './apiKeysApi';
import { CreateApiKeyModal, scopeKey } from './CreateApiKeyModal';
import { apiKeysKeys } from './queryKeys';

/**
 * `/configuracoes` → "API": the keys the user's own systems call Ecoa with. Create (name and
 * scopes; the key shown once), the live keys with when they were last used, revoke at once.
 */
export function ApiKeysCard() {
  const { t } = useTranslation();
  const when = useDateTime();
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const keys = useQuery({ queryKey: apiKeysKeys.all, queryFn: apiKeysApi.list });
  const revoke = useMutation({
    mutationFn: (key: ApiKey) => apiKeysApi.revoke(key.id),
    onSuccess: () => notify.success(t('apiKeys.revoke.done')),
    onError: (err) => notify.error(errorText(err, t, 'apiKeys.revoke.failed')),
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiKeysKeys.all }),
  });
  const confirmRevoke = (key: ApiKey) =>
    openConfirmDialog({
      centered: true,
      title: t('apiKeys.revoke.title'),
      body: t('apiKeys.revoke.question', { name: key.name }),
      confirmLabel: t('apiKeys.revoke.confirm'),
      cancelLabel: t('apiKeys.cancel'),
      confirmTestId: 'api-key-revoke-confirm',
      onConfirm: () => revoke.mutate(key),
    });

  const columns: DataColumn<ApiKey>[] = [
    {
      header: t('apiKeys.columns.name'),
      cell: (key) => (
        <Text fw={600} size="sm" data-testid="api-key-row-name">
          {key.name}
        </Text>
      ),
    },
    {
      header: t('apiKeys.columns.prefix'),
      cell: (key) => <Code data-testid="api-key-row-prefix">{key.prefix}…</Code>,
    },
    {
      header: t('apiKeys.columns.scopes'),
      cell: (key) => (
        <Group gap={4}>
          {key.scopes.map((scope) => (
            <Tooltip key={scope} label={t(`apiKeys.scopes.${scopeKey(scope)}.help`)} multiline maw={320}>
              <Badge variant="light" size="sm" tt="none">
                {scope}
              </Badge>
            </Tooltip>
          ))}
        </Group>
      ),
    },
    { header: t('apiKeys.columns.created'), cell: (key) => <Text size="sm">{when(key.createdAt)}</Text> },
    {
      header: t('apiKeys.columns.lastUsed'),
      cell: (key) => (
        <Text size="sm" c={key.lastUsedAt ? undefined : 'dimmed'} data-testid="api-key-row-last-used">
          {key.lastUsedAt ? when(key.lastUsedAt) : t('apiKeys.neverUsed')}
        </Text>
      ),
    },
    {
      cellProps: { ta: 'right' },
      cell: (key) => (
        <Tooltip label={t('apiKeys.revoke.action')}>
          <ActionIcon
            variant="subtle"
            color="red"
            loading={revoke.isPending && revoke.variables?.id === key.id}
            onClick={() => confirmRevoke(key)}
            aria-label={t('apiKeys.revoke.action')}
            data-testid="api-key-revoke"
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Tooltip>
      ),
    },
  ];

  return (
    <SettingsCard
      ns="apiKeys"
      icon={<IconKey size={20} />}
      action={
        <AddButton onClick={() => setCreating(true)} data-testid="api-key-new">
          {t('apiKeys.create.open')}
        </AddButton>
      }
      testId="api-keys"
      query={keys}
      isEmpty={(data) => data.items.length === 0}
      dialogs={<CreateApiKeyModal opened={creating} onClose={() => setCreating(false)} />}
    >
      {(data) => (
        <DataTable
          columns={columns}
          rows={data.items}
          rowKey={(key) => key.id}
          rowTestId="api-key-row"
          minWidth={720}
          verticalSpacing="sm"
          data-testid="api-keys-table"
        />
      )}
    </SettingsCard>
  );
}
