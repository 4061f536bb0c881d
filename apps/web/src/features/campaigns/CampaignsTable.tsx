import type { CampaignSummary } from '@ecoa/shared';
import { Anchor, Group, Progress, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { intlLocale } from '../../platform/i18n';
import { CampaignActions } from './CampaignActions';
import { CampaignStatusBadge } from './CampaignStatusBadge';
import { deliveryRate, progressPercent } from './format';
import { browserShowsSaoPaulo, saoPauloDateTime } from './times';

/** Campaigns with their live progress: the list page, the administrators' page and the dashboard. */
export function CampaignsTable({
  items,
  admin = false,
  compact = false,
}: {
  items: CampaignSummary[];
  admin?: boolean;
  compact?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const locale = intlLocale(i18n.language);
  const when = (iso: string) => saoPauloDateTime(iso, locale);
  const zone = browserShowsSaoPaulo() ? '' : ` (${t('campaigns.timeZone.brasilia')})`;
  const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 });
  const number = new Intl.NumberFormat(locale);
  return (
    <Table.ScrollContainer
      minWidth={compact ? 520 : 860}
      // Narrow screens scroll the table sideways: keyboard users reach it too (axe: scrollable-region-focusable).
      scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'region', 'aria-label': t('nav.campaigns') } }}
    >
      <Table verticalSpacing="sm" highlightOnHover data-testid="campaigns-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('campaigns.columns.name')}</Table.Th>
            {admin && <Table.Th>{t('campaigns.columns.user')}</Table.Th>}
            <Table.Th>{t('campaigns.columns.status')}</Table.Th>
            <Table.Th miw={160}>{t('campaigns.columns.progress')}</Table.Th>
            {!compact && <Table.Th>{t('campaigns.columns.deliveryRate')}</Table.Th>}
            {!compact && <Table.Th>{t('campaigns.columns.credits')}</Table.Th>}
            {!compact && <Table.Th>{`${t('campaigns.columns.when')}${zone}`}</Table.Th>}
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((c) => {
            const rate = deliveryRate(c);
            const url =
              c.status === 'DRAFT' && !admin ? `/campanhas/criar-campanha?rascunho=${c.id}` : `/campanhas/${c.id}`;
            return (
              <Table.Tr key={c.id} data-testid="campaign-row" data-id={c.id}>
                <Table.Td>
                  <Stack gap={0}>
                    {admin ? (
                      <Text fw={600}>{c.name}</Text>
                    ) : (
                      <Anchor component={Link} to={url} fw={600} data-testid="campaign-link">
                        {c.name}
                      </Anchor>
                    )}
                    <Text size="xs" c="dimmed">
                      {t(`channels.names.${c.channel}`)}
                    </Text>
                  </Stack>
                </Table.Td>
                {admin && (
                  <Table.Td>
                    <Text size="sm">{c.user?.company}</Text>
                    <Text size="xs" c="dimmed">
                      {c.user?.email}
                    </Text>
                  </Table.Td>
                )}
                <Table.Td>
                  <CampaignStatusBadge status={c.status} waitingWindow={c.waitingWindow} reason={c.statusReason} />
                </Table.Td>
                <Table.Td>
                  <Stack gap={4}>
                    <Progress
                      value={progressPercent(c)}
                      size="sm"
                      animated={c.status === 'RUNNING'}
                      aria-label={t('app.a11y.campaignProgress', { name: c.name })}
                      data-testid="campaign-progress"
                    />
                    <Text size="xs" c="dimmed" data-testid="campaign-progress-text">
                      {number.format(c.done)} / {number.format(c.total)}
                    </Text>
                  </Stack>
                </Table.Td>
                {!compact && <Table.Td>{rate === null ? '—' : percent.format(rate)}</Table.Td>}
                {!compact && <Table.Td>{number.format(c.creditsUsed)}</Table.Td>}
                {!compact && (
                  <Table.Td>
                    <Text size="sm">
                      {when(c.scheduledAt && c.status === 'SCHEDULED' ? c.scheduledAt : c.createdAt)}
                    </Text>
                    {c.status === 'SCHEDULED' && (
                      <Text size="xs" c="dimmed">
                        {t('campaigns.scheduled')}
                      </Text>
                    )}
                  </Table.Td>
                )}
                <Table.Td>
                  <Group justify="flex-end">
                    <CampaignActions id={c.id} status={c.status} admin={admin} />
                  </Group>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
