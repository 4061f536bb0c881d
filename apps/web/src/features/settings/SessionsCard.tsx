import type { SessionInfo } from '@ecoa/shared';
import { Badge, Button, Group, Paper, Stack, Text, ThemeIcon, Tooltip } from '@mantine/core';
import {
  IconDeviceDesktop,
  IconDeviceMobile,
  IconDevices,
  IconDeviceTablet,
  IconLogout,
  IconShieldLock,
} from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../platform/errors';
import { useDateTime } from '../../platform/i18n';
import { notify } from '../../platform/notify';
import { useSession } from '../../platform/SessionProvider';
import { openConfirmDialog } from '../../ui/ConfirmDialog';
import { SettingsCard } from '../../ui/SettingsCard';
import { settingsKeys } from './queryKeys';
import { settingsApi } from './settingsApi';

const DEVICE_ICONS = {
  desktop: IconDeviceDesktop,
  mobile: IconDeviceMobile,
  tablet: IconDeviceTablet,
  unknown: IconDevices,
} as const;

/** "Chrome on Linux" in the user's language; what is known when only part is. */
export function deviceName(t: TFunction, device: SessionInfo['device']): string {
  const { browser, os } = device;
  if (browser && os) return t('settings.sessions.deviceOn', { browser, os });
  return browser ?? os ?? t('settings.sessions.unknownDevice');
}

function SessionRow({
  session,
  onEnd,
  ending,
}: {
  session: SessionInfo;
  onEnd: (session: SessionInfo) => void;
  ending: boolean;
}) {
  const { t } = useTranslation();
  const when = useDateTime();
  const Icon = DEVICE_ICONS[session.device.kind];
  return (
    <Paper withBorder radius="md" p="sm" data-testid="session-row" data-current={session.current || undefined}>
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Group gap="sm" wrap="nowrap" style={{ minWidth: 0, flex: '1 1 18rem' }}>
          <ThemeIcon size={40} radius="md" variant="light" color={session.current ? 'teal' : 'gray'}>
            <Icon size={22} />
          </ThemeIcon>
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Group gap={8} wrap="wrap">
              <Tooltip label={session.userAgent ?? t('settings.sessions.unknownDevice')} multiline maw={360}>
                <Text fw={600} size="sm" data-testid="session-device">
                  {deviceName(t, session.device)}
                </Text>
              </Tooltip>
              {session.current && (
                <Badge color="teal" variant="light" size="sm" data-testid="session-current">
                  {t('settings.sessions.thisDevice')}
                </Badge>
              )}
            </Group>
            <Text size="xs" c="dimmed">
              {t('settings.sessions.ip', { ip: session.ip ?? '—' })}
            </Text>
            <Text size="xs" c="dimmed">
              {t('settings.sessions.times', { created: when(session.createdAt), lastSeen: when(session.lastSeenAt) })}
            </Text>
          </Stack>
        </Group>
        <Button
          variant={session.current ? 'light' : 'default'}
          color={session.current ? 'red' : undefined}
          size="xs"
          leftSection={<IconLogout size={14} />}
          loading={ending}
          onClick={() => onEnd(session)}
          data-testid="session-end"
        >
          {t(session.current ? 'settings.sessions.endThis' : 'settings.sessions.end')}
        </Button>
      </Group>
    </Paper>
  );
}

/**
 * Where the account is signed in: each live session with its device, IP and times, "this
 * device" marked. Ending the current session, or all of them, signs this browser out too.
 */
export function SessionsCard() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { signOut } = useSession();
  const sessions = useQuery({ queryKey: settingsKeys.sessions, queryFn: settingsApi.sessions });

  const endOne = useMutation({
    mutationFn: (session: SessionInfo) => settingsApi.endSession(session.id),
    onSuccess: async (result) => {
      if (result.current) {
        await signOut();
        return;
      }
      notify.success(t('settings.sessions.ended'));
      await queryClient.invalidateQueries({ queryKey: settingsKeys.sessions });
    },
    onError: (err) => {
      notify.error(errorText(err, t, 'settings.sessions.failed'));
      void queryClient.invalidateQueries({ queryKey: settingsKeys.sessions });
    },
  });
  const endAll = useMutation({
    mutationFn: () => settingsApi.endAllSessions(),
    onSuccess: () => signOut(),
    onError: (err) => notify.error(errorText(err, t, 'settings.sessions.failed')),
  });

  const confirmEnd = (session: SessionInfo) => {
    if (!session.current) {
      endOne.mutate(session);
      return;
    }
    openConfirmDialog({
      centered: true,
      title: t('settings.sessions.endThis'),
      body: t('settings.sessions.endThisQuestion'),
      confirmLabel: t('settings.sessions.endThisConfirm'),
      cancelLabel: t('settings.cancel'),
      confirmTestId: 'session-end-confirm',
      onConfirm: () => endOne.mutate(session),
    });
  };

  const confirmEndAll = () =>
    openConfirmDialog({
      centered: true,
      title: t('settings.sessions.endAll'),
      body: t('settings.sessions.endAllQuestion'),
      confirmLabel: t('settings.sessions.endAllConfirm'),
      cancelLabel: t('settings.cancel'),
      confirmTestId: 'sessions-end-all-confirm',
      onConfirm: () => endAll.mutate(),
    });

  return (
    <SettingsCard
      ns="settings.sessions"
      icon={<IconShieldLock size={20} />}
      action={
        <Button
          color="red"
          variant="light"
          leftSection={<IconLogout size={16} />}
          loading={endAll.isPending}
          disabled={!sessions.data}
          onClick={confirmEndAll}
          data-testid="sessions-end-all"
        >
          {t('settings.sessions.endAll')}
        </Button>
      }
      testId="sessions"
      query={sessions}
    >
      {(data) => (
        <Stack gap="xs" data-testid="sessions-list">
          {data.items.map((session) => (
            <SessionRow
              key={session.id}
              session={session}
              onEnd={confirmEnd}
              ending={endOne.isPending && endOne.variables?.id === session.id}
            />
          ))}
        </Stack>
      )}
    </SettingsCard>
  );
}
