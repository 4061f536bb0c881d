import { useTranslation } from 'react-i18next';
import type { DataColumn } from '../../ui/DataTable';
import { TwoLineCell } from '../../ui/TwoLineCell';
import { AdminLinkTable } from './adminLinkParts';
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
      cell: (link) => <TwoLineCell title={link.name} detail={link.url} />,
    },
  ];
  const figures: typeof columns = [
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
      status={(link) => ({
        label: t(`links.status.${link.status}`),
        color: link.status === 'active' ? 'teal' : 'gray',
      })}
      figures={figures}
      nameOf={(link) => link.name}
      onSetDisabled={onSetDisabled}
      rowTestId="admin-link-row"
      minWidth={820}
    />
  );
}
