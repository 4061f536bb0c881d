import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { DataColumn } from '../../ui/DataTable';
import { AdminLinkTable, AdminStatus } from './adminLinkParts';
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
  const columns: DataColumn<AdminLink>[] = [
    {
      header: t('links.columns.link'),
      cell: (link) => (
        <>
          <Text size="sm" fw={600}>
            {link.name}
          </Text>
          <Text size="xs" c="dimmed">
            {link.url}
          </Text>
        </>
      ),
    },
    {
      header: t('links.columns.status'),
      miw: 130,
      cell: (link) => (
        <AdminStatus
          disabled={link.disabled}
          reason={link.disabledReason}
          label={t(`links.status.${link.status}`)}
          color={link.status === 'active' ? 'teal' : 'gray'}
        />
      ),
    },
    { header: t('links.columns.clicks'), align: 'right', cell: (link) => link.clicks },
    {
      header: t('links.columns.last7'),
      align: 'right',
      style: { whiteSpace: 'nowrap' },
      cell: (link) => link.clicksLast7Days,
    },
  ];
  return (
    <AdminLinkTable
      items={items}
      columns={columns}
      nameOf={(link) => link.name}
      onSetDisabled={onSetDisabled}
      rowTestId="admin-link-row"
      minWidth={820}
    />
  );
}
