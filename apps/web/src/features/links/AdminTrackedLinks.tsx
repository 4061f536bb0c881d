import type { AdminTrackedLink } from '@ecoa/shared';
import { Anchor, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { intlLocale } from '../../platform/i18n';
import { AdminStatus, DisableToggle, OwnerCell } from './adminLinkParts';

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
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('adminLinks.columns.owner')}</Table.Th>
            <Table.Th>{t('adminLinks.columns.campaign')}</Table.Th>
            <Table.Th>{t('adminLinks.columns.destination')}</Table.Th>
            <Table.Th miw={130}>{t('links.columns.status')}</Table.Th>
            <Table.Th ta="right" style={{ whiteSpace: 'nowrap' }}>
              {t('links.columns.clicks')}
            </Table.Th>
            <Table.Th ta="right">{t('campaigns.detail.ctr')}</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((link) => (
            <Table.Tr key={link.id} data-testid="admin-tracked-row">
              <Table.Td>
                <OwnerCell user={link.user} />
              </Table.Td>
              <Table.Td>
                <Text size="sm" fw={600}>
                  {link.campaign.name}
                </Text>
                <Text size="xs" c="dimmed">
                  {t('campaigns.detail.recipientsCount', { count: link.recipients })}
                </Text>
              </Table.Td>
              <Table.Td maw={280}>
                {link.destination.rotatingLink ? (
                  <Text size="sm">
                    {link.destination.rotatingLink.name}{' '}
                    <Text span size="xs" c="dimmed">
                      /l/{link.destination.rotatingLink.slug}
                    </Text>
                  </Text>
                ) : (
                  <Anchor size="sm" href={link.destination.url ?? '#'} target="_blank" rel="noreferrer" lineClamp={1}>
                    {link.destination.url}
                  </Anchor>
                )}
              </Table.Td>
              <Table.Td>
                <AdminStatus
                  disabled={link.disabled}
                  reason={link.disabledReason}
                  label={t(`campaigns.status.${link.campaign.status}`)}
                  color="teal"
                />
              </Table.Td>
              <Table.Td ta="right">{link.clicks}</Table.Td>
              <Table.Td ta="right">{percent.format(link.recipients ? link.clickers / link.recipients : 0)}</Table.Td>
              <Table.Td>
                <DisableToggle
                  name={link.campaign.name}
                  disabled={link.disabled}
                  onSet={(disabled, reason) => onSetDisabled(link, disabled, reason)}
                />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
