import type { AdminTrackedLink } from '@ecoa/shared';
import { Anchor, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { intlLocale } from '../../platform/i18n';
import type { DataColumn } from '../../ui/DataTable';
import { TwoLineCell } from '../../ui/TwoLineCell';
import { AdminLinkTable } from './adminLinkParts';

/** Campaigns whose messages carry a tracked link: owner, destination, clicks; turn one off. */
export function AdminTrackedLinks({
  items,
  onSetDisabled,
}: {
  items: AdminTrackedLink[];
  onSetDisabled: (link: AdminTrackedLink, disabled: boolean, reason?: string) => Promise<unknown>;
}) {
  const { t, i18n } = useTranslation();
  const percent = new Intl.NumberFormat(intlLocale(i18n.language), { style: 'percent', maximumFractionDigits: 1 });
  const columns: DataColumn<AdminTrackedLink>[] = [
    {
      header: t('adminLinks.columns.campaign'),
      cell: (link) => (
        <TwoLineCell
          title={link.campaign.name}
          detail={t('campaigns.detail.recipientsCount', { count: link.recipients })}
        />
      ),
    },
    {
      header: t('adminLinks.columns.destination'),
      cellProps: { maw: 280 },
      cell: ({ destination }) =>
        destination.rotatingLink ? (
          <Text size="sm">
            {destination.rotatingLink.name}{' '}
            <Text span size="xs" c="dimmed">
              /l/{destination.rotatingLink.slug}
            </Text>
          </Text>
        ) : (
          <Anchor size="sm" href={destination.url ?? '#'} target="_blank" rel="noreferrer" lineClamp={1}>
            {destination.url}
          </Anchor>
        ),
    },
  ];
  const figures: typeof columns = [
    {
      header: t('links.columns.clicks'),
      align: 'right',
      style: { whiteSpace: 'nowrap' },
      cell: (link) => link.clicks,
    },
    {
      header: t('campaigns.detail.ctr'),
      align: 'right',
      cell: (link) => percent.format(link.recipients ? link.clickers / link.recipients : 0),
    },
  ];
  return (
    <AdminLinkTable
      items={items}
      columns={columns}
      status={(link) => ({ label: t(`campaigns.status.${link.campaign.status}`), color: 'teal' })}
      figures={figures}
      nameOf={(link) => link.campaign.name}
      onSetDisabled={onSetDisabled}
      rowTestId="admin-tracked-row"
      minWidth={900}
    />
  );
}
