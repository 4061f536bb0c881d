import type { CampaignSummary } from '@ecoa/shared';
import { Group, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { usePhone } from '../../ui/usePhone';
import { CampaignActions } from './CampaignActions';
import { CampaignCards } from './CampaignCards';
import { CampaignStatusBadge } from './CampaignStatusBadge';
import { CampaignName, CampaignProgress, useCampaignFigures } from './campaignCells';

/**
 * Campaigns with their live progress: the list page, the administrators' page and the dashboard.
 * On a phone, one card per campaign (`CampaignCards`) instead of columns wider than the screen.
 */
export function CampaignsTable({
  items,
  admin = false,
  compact = false,
}: {
  items: CampaignSummary[];
  admin?: boolean;
  compact?: boolean;
}) {
  const { t } = useTranslation();
  const phone = usePhone();
  const figures = useCampaignFigures();
  if (phone) return <CampaignCards items={items} admin={admin} compact={compact} />;
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
            {!compact && <Table.Th>{`${t('campaigns.columns.when')}${figures.zone}`}</Table.Th>}
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((c) => (
            <Table.Tr key={c.id} data-testid="campaign-row" data-id={c.id}>
              <Table.Td>
                <CampaignName campaign={c} admin={admin} />
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
                <CampaignProgress campaign={c} />
              </Table.Td>
              {!compact && <Table.Td>{figures.rate(c)}</Table.Td>}
              {!compact && <Table.Td>{figures.credits(c)}</Table.Td>}
              {!compact && (
                <Table.Td>
                  <Text size="sm">{figures.when(c)}</Text>
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
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
