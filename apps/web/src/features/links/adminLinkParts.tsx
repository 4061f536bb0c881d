/** Pieces the administrators' two link tables share: the owner, the status, the disable dialog. */
import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { notify } from '../../platform/notify';
import { type DataColumn, DataTable } from '../../ui/DataTable';
import { openTextPrompt } from '../../ui/TextPrompt';
import { linkErrorText } from './errors';

export type Owner = { name: string; email: string; company: string };

export function OwnerCell({ user }: { user: Owner }) {
  return (
    <>
      <Text size="sm" fw={600}>
        {user.company}
      </Text>
      <Text size="xs" c="dimmed">
        {user.name} · {user.email}
      </Text>
    </>
  );
}

/** "Disabled by an administrator" with the reason, or the link's own status. */
export function AdminStatus({
  disabled,
  reason,
  label,
  color,
}: {
  disabled: boolean;
  reason: string | null;
  label: string;
  color: string;
}) {
  const { t } = useTranslation();
  if (!disabled)
    return (
      <Badge color={color} variant="light" data-testid="admin-link-status">
        {label}
      </Badge>
    );
  return (
    <Stack gap={2}>
      <Badge color="red" variant="light" style={{ overflow: 'visible' }} data-testid="admin-link-status">
        {t('links.status.disabled')}
      </Badge>
      {reason && (
        <Text size="xs" c="dimmed">
          {reason}
        </Text>
      )}
    </Stack>
  );
}

/** Enable, or disable after asking why (the reason is required: it goes to the audit log). */
export function DisableToggle({
  name,
  disabled,
  onSet,
}: {
  name: string;
  disabled: boolean;
  onSet: (disabled: boolean, reason?: string) => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const enable = async () => {
    try {
      await onSet(false);
      notify.success(t('adminLinks.enabled'));
    } catch (err) {
      notify.error(linkErrorText(t, err));
    }
  };
  return (
    <Group justify="flex-end">
      {disabled ? (
        <Button size="xs" variant="light" onClick={() => void enable()}>
          {t('adminLinks.enable')}
        </Button>
      ) : (
        <Button
          size="xs"
          variant="light"
          color="red"
          onClick={() => askReason(t, name, (reason) => onSet(true, reason))}
          data-testid="admin-link-disable"
        >
          {t('adminLinks.disable')}
        </Button>
      )}
    </Group>
  );
}

function askReason(t: TFunction, name: string, disable: (reason: string) => Promise<unknown>) {
  openTextPrompt({
    title: t('adminLinks.disableTitle', { name }),
    label: t('adminLinks.reason'),
    description: t('adminLinks.reasonHelp'),
    maxLength: 300,
    multiline: true,
    confirmLabel: t('adminLinks.disable'),
    cancelLabel: t('links.cancel'),
    confirmColor: 'red',
    inputTestId: 'disable-reason',
    confirmTestId: 'confirm-disable',
    requiredText: t('adminLinks.reasonRequired'),
    submit: async (reason) => {
      await disable(reason.trim());
      notify.success(t('adminLinks.disabled'));
    },
    errorText: (err) => linkErrorText(t, err),
  });
}

/**
 * An administrators' link table: who owns each link first, the table's own columns, and the
 * switch that turns a link off last.
 */
export function AdminLinkTable<
  L extends { id: string; user: Owner; disabled: boolean; disabledReason: string | null },
>({
  items,
  columns,
  figures,
  status,
  nameOf,
  onSetDisabled,
  ...tableProps
}: {
  items: L[];
  /** What the link is, after its owner. */
  columns: DataColumn<L>[];
  /** The link's own status (shown unless an administrator disabled it). */
  status: (link: L) => { label: string; color: string };
  /** Its counts, right of the status. */
  figures: DataColumn<L>[];
  nameOf: (link: L) => string;
  onSetDisabled: (link: L, disabled: boolean, reason?: string) => Promise<unknown>;
  rowTestId: string;
  minWidth: number;
}) {
  const { t } = useTranslation();
  const owner: DataColumn<L> = {
    header: t('adminLinks.columns.owner'),
    cell: (link) => <OwnerCell user={link.user} />,
  };
  const statusColumn: DataColumn<L> = {
    header: t('links.columns.status'),
    miw: 130,
    cell: (link) => <AdminStatus disabled={link.disabled} reason={link.disabledReason} {...status(link)} />,
  };
  const disable: DataColumn<L> = {
    cell: (link) => (
      <DisableToggle
        name={nameOf(link)}
        disabled={link.disabled}
        onSet={(disabled, reason) => onSetDisabled(link, disabled, reason)}
      />
    ),
  };
  return (
    <DataTable
      columns={[owner, ...columns, statusColumn, ...figures, disable]}
      rows={items}
      rowKey={(link) => link.id}
      verticalSpacing="sm"
      {...tableProps}
    />
  );
}
