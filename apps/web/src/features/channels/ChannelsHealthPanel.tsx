import { Badge, Card, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { intlLocale } from '../../platform/i18n';
import { QueryErrorAlert } from '../../ui/LoadErrorAlert';
import { channelsApi } from './channelsApi';
import { channelsKeys } from './queryKeys';

/** Administrators: each carrier connection — simulator or real, up or down, how busy, its last error. */
export function ChannelsHealthPanel() {
  const { t, i18n } = useTranslation();
  const query = useQuery({ queryKey: channelsKeys.health, queryFn: channelsApi.health, refetchInterval: 5000 });
  return (
    <Card withBorder padding="lg" data-testid="channels-health">
      <Stack gap="sm">
        <Title order={4}>{t('channels.health.title')}</Title>
        {query.error ? (
          <QueryErrorAlert query={query} fallbackKey="channels.health.loadFailed" />
        ) : (
          <Table.ScrollContainer minWidth={640}>
            <Table verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('channels.health.provider')}</Table.Th>
                  <Table.Th>{t('channels.health.mode')}</Table.Th>
                  <Table.Th>{t('channels.health.connection')}</Table.Th>
                  <Table.Th>{t('channels.health.tps')}</Table.Th>
                  <Table.Th>{t('channels.health.inFlight')}</Table.Th>
                  <Table.Th>{t('channels.health.lastError')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {(query.data ?? []).map((p) => (
                  <Table.Tr key={p.provider} data-testid={`provider-${p.provider}`}>
                    <Table.Td>
                      <Text fw={600} size="sm">
                        {t(`channels.providers.${p.provider}`, { defaultValue: p.provider })}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {p.channels.map((c) => t(`channels.names.${c}`)).join(', ')}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={p.mode === 'real' ? 'blue' : 'grape'}>
                        {t(`channels.health.modes.${p.mode}`)}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <Badge variant="dot" color={p.connected ? 'teal' : 'red'} data-testid="provider-connected">
                        {t(p.connected ? 'channels.health.connected' : 'channels.health.disconnected')}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">
                        {p.tpsInUse}
                        {p.tpsLimit !== null ? ` / ${p.tpsLimit}` : ''}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{p.inFlight}</Text>
                    </Table.Td>
                    <Table.Td maw={260}>
                      {p.lastError ? (
                        <Tooltip label={p.lastError.message} multiline maw={320}>
                          <Text size="xs" c="red" lineClamp={2}>
                            {new Date(p.lastError.at).toLocaleString(intlLocale(i18n.language))} — {p.lastError.message}
                          </Text>
                        </Tooltip>
                      ) : (
                        <Text size="xs" c="dimmed">
                          {t('channels.health.noError')}
                        </Text>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Card>
  );
}
