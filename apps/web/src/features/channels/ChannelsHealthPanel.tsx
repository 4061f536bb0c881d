import type { ProviderHealthDto } from '@ecoa/shared';
import { Badge, Card, Stack, Text, Title, Tooltip } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { intlLocale } from '../../platform/i18n';
import { type DataColumn, DataTable } from '../../ui/DataTable';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { channelsApi } from './channelsApi';
import { channelsKeys } from './queryKeys';

/** Administrators: each carrier connection — simulator or real, up or down, how busy, its last error. */
export function ChannelsHealthPanel() {
  const { t, i18n } = useTranslation();
  const query = useQuery({ queryKey: channelsKeys.health, queryFn: channelsApi.health, refetchInterval: 5000 });
  const columns: DataColumn<ProviderHealthDto>[] = [
    {
      header: t('channels.health.provider'),
      cell: (p) => (
        <>
          <Text fw={600} size="sm">
            {t(`channels.providers.${p.provider}`, { defaultValue: p.provider })}
          </Text>
          <Text size="xs" c="dimmed">
            {p.channels.map((c) => t(`channels.names.${c}`)).join(', ')}
          </Text>
        </>
      ),
    },
    {
      header: t('channels.health.mode'),
      cell: (p) => (
        <Badge variant="light" color={p.mode === 'real' ? 'blue' : 'grape'}>
          {t(`channels.health.modes.${p.mode}`)}
        </Badge>
      ),
    },
    {
      header: t('channels.health.connection'),
      cell: (p) => (
        <Badge variant="dot" color={p.connected ? 'teal' : 'red'} data-testid="provider-connected">
          {t(p.connected ? 'channels.health.connected' : 'channels.health.disconnected')}
        </Badge>
      ),
    },
    {
      header: t('channels.health.tps'),
      cell: (p) => (
        <Text size="sm">
          {p.tpsInUse}
          {p.tpsLimit !== null ? ` / ${p.tpsLimit}` : ''}
        </Text>
      ),
    },
    { header: t('channels.health.inFlight'), cell: (p) => <Text size="sm">{p.inFlight}</Text> },
    {
      header: t('channels.health.lastError'),
      cellProps: { maw: 260 },
      cell: (p) =>
        p.lastError ? (
          <Tooltip label={p.lastError.message} multiline maw={320}>
            <Text size="xs" c="red" lineClamp={2}>
              {new Date(p.lastError.at).toLocaleString(intlLocale(i18n.language))} — {p.lastError.message}
            </Text>
          </Tooltip>
        ) : (
          <Text size="xs" c="dimmed">
            {t('channels.health.noError')}
          </Text>
        ),
    },
  ];
  return (
    <Card withBorder padding="lg" data-testid="channels-health">
      <Stack gap="sm">
        <Title order={4}>{t('channels.health.title')}</Title>
        {query.error ? (
          <LoadErrorAlert query={query} fallbackKey="channels.health.loadFailed" />
        ) : (
          <DataTable
            columns={columns}
            rows={query.data ?? []}
            rowKey={(p) => p.provider}
            rowProps={(p) => ({ 'data-testid': `provider-${p.provider}` })}
            minWidth={640}
            verticalSpacing="xs"
          />
        )}
      </Stack>
    </Card>
  );
}
