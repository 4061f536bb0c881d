import type { CampaignSummary } from '@ecoa/shared';
import { Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { type DataColumn, DataTable } from '../../ui/DataTable';
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
  const columns: DataColumn<CampaignSummary>[] = [
    { header: t('campaigns.columns.name'), cell: (c) => <CampaignName campaign={c} admin={admin} /> },
    {
      header: t('campaigns.columns.user'),
      show: admin,
      cell: (c) => (
        <>
          <Text size="sm">{c.user?.company}</Text>
          <Text size="xs" c="dimmed">
            {c.user?.email}
          </Text>
        </>
      ),
    },
    {
      header: t('campaigns.columns.status'),
      cell: (c) => <CampaignStatusBadge status={c.status} waitingWindow={c.waitingWindow} reason={c.statusReason} />,
    },
    { header: t('campaigns.columns.progress'), miw: 160, cell: (c) => <CampaignProgress campaign={c} /> },
    { header: t('campaigns.columns.deliveryRate'), show: !compact, cell: figures.rate },
    { header: t('campaigns.columns.credits'), show: !compact, cell: figures.credits },
    {
      header: `${t('campaigns.columns.when')}${figures.zone}`,
      show: !compact,
      cell: (c) => (
        <>
          <Text size="sm">{figures.when(c)}</Text>
          {c.status === 'SCHEDULED' && (
            <Text size="xs" c="dimmed">
              {t('campaigns.scheduled')}
            </Text>
          )}
        </>
      ),
    },
    {
      cell: (c) => (
        <Group justify="flex-end">
          <CampaignActions id={c.id} status={c.status} admin={admin} />
        </Group>
      ),
    },
  ];
  return (
    <DataTable
      columns={columns}
      rows={items}
      rowKey={(c) => c.id}
      rowProps={(c) => ({ 'data-testid': 'campaign-row', 'data-id': c.id })}
      minWidth={compact ? 520 : 860}
      scrollLabel={t('nav.campaigns')}
      verticalSpacing="sm"
      highlightOnHover
      data-testid="campaigns-table"
    />
  );
}
