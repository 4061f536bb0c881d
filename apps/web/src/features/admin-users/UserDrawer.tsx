import type { AdminUser } from '@ecoa/shared';
import { Badge, Divider, Drawer, Group, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../platform/SessionProvider';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { LoadingState } from '../../ui/LoadingState';
import { formatReais, refreshMoney } from '../credits';
import { AdminUserCredits } from './AdminUserCredits';
import { AuditHistory } from './AuditHistory';
import { adminUsersApi } from './adminUsersApi';
import { maskCnpj, maskPhone } from './format';
import { adminUsersKeys } from './queryKeys';
import { UserForm } from './UserForm';

/** Changes whenever a saved value changes, so the form restarts from what the server holds. */
const savedValuesKey = (u: AdminUser) =>
  JSON.stringify([u.id, u.active, u.accessLevel, u.priceTable, u.permissions.enriched, u.apiRatePerSecond]);

/**
 * One user, for an administrator: who they are, the editable settings, their money (the credits
 * component: balances, manual payments, adjustments, statements) and the history of changes.
 */
export function UserDrawer({ userId, onClose }: { userId: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const detail = useQuery({
    queryKey: adminUsersKeys.detail(userId),
    queryFn: ({ signal }) => adminUsersApi.get(userId as string, signal),
    enabled: userId !== null,
  });
  const user = detail.data;

  const { user: me } = useSession();
  // A payment or an adjustment recorded below moves the balance this drawer's header and the
  // users table show (and the administrator's own, when it is their account).
  const moneyChanged = () => {
    void queryClient.invalidateQueries({ queryKey: adminUsersKeys.detail(userId) });
    void queryClient.invalidateQueries({ queryKey: adminUsersKeys.lists });
    if (me && me.id === userId) void refreshMoney(queryClient);
  };
  const close = () => {
    onClose();
    void queryClient.invalidateQueries({ queryKey: adminUsersKeys.lists });
  };

  return (
    <Drawer
      opened={userId !== null}
      onClose={close}
      position="right"
      size="xl"
      title={t('adminUsers.drawer.title')}
      closeButtonProps={{ 'aria-label': t('adminUsers.drawer.close') }}
      data-testid="user-drawer"
    >
      {detail.isPending && <LoadingState />}
      <LoadErrorAlert query={detail} fallbackKey="adminUsers.loadError" data-testid="user-drawer-error" />
      {user && user.id === userId && (
        <Stack gap="lg">
          <Stack gap={2} data-testid="user-drawer-header">
            <Group gap="xs" wrap="wrap">
              <Text fw={700} size="lg">
                {user.name}
              </Text>
              <Badge color={user.active ? 'teal' : 'gray'} variant="light">
                {t(user.active ? 'adminUsers.status.active' : 'adminUsers.status.inactive')}
              </Badge>
            </Group>
            <Text size="sm">
              {user.fullName} · {user.email}
            </Text>
            <Text size="sm" c="dimmed">
              {t('adminUsers.columns.cnpj')} {maskCnpj(user.cnpj)} · {maskPhone(user.mobilePhone)} ·{' '}
              {t('adminUsers.columns.balance')} {formatReais(user.balance.money)}
            </Text>
          </Stack>
          <UserForm key={savedValuesKey(user)} user={user} />
          <Divider />
          <AdminUserCredits userId={user.id} onMoneyChanged={moneyChanged} />
          <Divider />
          <AuditHistory entries={user.history} />
        </Stack>
      )}
    </Drawer>
  );
}
