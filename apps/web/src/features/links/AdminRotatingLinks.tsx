import { Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { AdminStatus, DisableToggle, OwnerCell } from './adminLinkParts';
import type { AdminLink } from './linksApi';

/** Every user's rotating links: owner, address, status, clicks; disable an abusive one. */
export function AdminRotatingLinks({
  items,
  onSetDisabled,
}: {
  items: AdminLink[];
  onSetDisabled: (link: AdminLink, disabled: boolean, reason?: string) => Promise<unknown>;
}) {
  const { t } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={820}>
      <Table verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('adminLinks.columns.owner')}</Table.Th>
            <Table.Th>{t('links.columns.link')}</Table.Th>
            <Table.Th miw={130}>{t('links.columns.status')}</Table.Th>
            <Table.Th ta="right">{t('links.columns.clicks')}</Table.Th>
            <Table.Th ta="right" style={{ whiteSpace: 'nowrap' }}>
              {t('links.columns.last7')}
            </Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((link) => (
            <Table.Tr key={link.id} data-testid="admin-link-row">
              <Table.Td>
                <OwnerCell user={link.user} />
              </Table.Td>
              <Table.Td>
                <Text size="sm" fw={600}>
                  {link.name}
                </Text>
                <Text size="xs" c="dimmed">
                  {link.url}
                </Text>
              </Table.Td>
              <Table.Td>
                <AdminStatus
                  disabled={link.disabled}
                  reason={link.disabledReason}
                  label={t(`links.status.${link.status}`)}
                  color={link.status === 'active' ? 'teal' : 'gray'}
                />
              </Table.Td>
              <Table.Td ta="right">{link.clicks}</Table.Td>
              <Table.Td ta="right">{link.clicksLast7Days}</Table.Td>
              <Table.Td>
                <DisableToggle
                  name={link.name}
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
