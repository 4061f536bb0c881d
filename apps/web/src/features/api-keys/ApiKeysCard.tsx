import type { ApiKey } from '@ecoa/shared';
import {
  ActionIcon,
  Badge,
  Button,
  Card,
  Code,
  Group,
  Loader,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconKey, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../platform/errors';
import { intlLocale } from '../../platform/i18n';
import { notify } from '../../platform/notify';
import { openConfirmDialog } from '../../ui/ConfirmDialog';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { apiKeysApi } from './apiKeysApi';
import { CreateApiKeyModal, scopeKey } from './CreateApiKeyModal';
import { apiKeysKeys } from './queryKeys';

function useDateTime() {
  const { i18n } = useTranslation();
  const format = new Intl.DateTimeFormat(intlLocale(i18n.language), { dateStyle: 'short', timeStyle: 'short' });
  return (iso: string) => format.format(new Date(iso));
}

function KeyRow({
  apiKey,
  onRevoke,
  revoking,
}: {
  apiKey: ApiKey;
  onRevoke: (key: ApiKey) => void;
  revoking: boolean;
}) {
  const { t } = useTranslation();
  const when = useDateTime();
  return (
    <Table.Tr data-testid="api-key-row">
      <Table.Td>
        <Text fw={600} size="sm" data-testid="api-key-row-name">
          {apiKey.name}
        </Text>
      </Table.Td>
      <Table.Td>
        <Code data-testid="api-key-row-prefix">{apiKey.prefix}…</Code>
      </Table.Td>
      <Table.Td>
        <Group gap={4}>
          {apiKey.scopes.map((scope) => (
            <Tooltip key={scope} label={t(`apiKeys.scopes.${scopeKey(scope)}.help`)} multiline maw={320}>
              <Badge variant="light" size="sm" tt="none">
                {scope}
              </Badge>
            </Tooltip>
          ))}
        </Group>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{when(apiKey.createdAt)}</Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm" c={apiKey.lastUsedAt ? undefined : 'dimmed'} data-testid="api-key-row-last-used">
          {apiKey.lastUsedAt ? when(apiKey.lastUsedAt) : t('apiKeys.neverUsed')}
        </Text>
      </Table.Td>
      <Table.Td ta="right">
        <Tooltip label={t('apiKeys.revoke.action')}>
          <ActionIcon
            variant="subtle"
            color="red"
            loading={revoking}
            onClick={() => onRevoke(apiKey)}
            aria-label={t('apiKeys.revoke.action')}
            data-testid="api-key-revoke"
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Tooltip>
      </Table.Td>
    </Table.Tr>
  );
}

/**
 * `/configuracoes` → "API": the keys the user's own systems call Ecoa with. Create (name and
 * scopes; the key shown once), the live keys with when they were last used, revoke at once.
 */
export function ApiKeysCard() {
  const { t } = useTranslation();
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

  const items = keys.data?.items ?? [];
  return (
    <Card withBorder radius="lg" padding="lg" data-testid="settings-api-keys">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" gap="sm">
          <div style={{ flex: '1 1 16rem' }}>
            <Group gap={8}>
              <IconKey size={20} />
              <Title order={4}>{t('apiKeys.title')}</Title>
            </Group>
            <Text size="sm" c="dimmed" mt={4}>
              {t('apiKeys.intro')}
            </Text>
          </div>
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)} data-testid="api-key-new">
            {t('apiKeys.create.open')}
          </Button>
        </Group>
        {keys.isPending ? (
          <Group justify="center" py="lg">
            <Loader size="sm" />
          </Group>
        ) : keys.isError ? (
          <LoadErrorAlert
            error={keys.error}
            fallbackKey="apiKeys.loadFailed"
            onRetry={() => void keys.refetch()}
            data-testid="api-keys-error"
          />
        ) : items.length === 0 ? (
          <Text size="sm" c="dimmed" ta="center" py="md" data-testid="api-keys-empty">
            {t('apiKeys.empty')}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={720}>
            <Table verticalSpacing="sm" data-testid="api-keys-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('apiKeys.columns.name')}</Table.Th>
                  <Table.Th>{t('apiKeys.columns.prefix')}</Table.Th>
                  <Table.Th>{t('apiKeys.columns.scopes')}</Table.Th>
                  <Table.Th>{t('apiKeys.columns.created')}</Table.Th>
                  <Table.Th>{t('apiKeys.columns.lastUsed')}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((key) => (
                  <KeyRow
                    key={key.id}
                    apiKey={key}
                    onRevoke={confirmRevoke}
                    revoking={revoke.isPending && revoke.variables?.id === key.id}
                  />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
      <CreateApiKeyModal opened={creating} onClose={() => setCreating(false)} />
    </Card>
  );
}
