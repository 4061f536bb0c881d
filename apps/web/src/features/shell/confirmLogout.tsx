import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { TFunction } from 'i18next';

/** "Tem certeza que deseja sair da plataforma?" — "Sim, Sair" / "Fechar". */
export function confirmLogout(t: TFunction, onConfirm: () => void) {
  modals.openConfirmModal({
    centered: true,
    withCloseButton: false,
    children: <Text data-testid="logout-question">{t('shell.logoutQuestion')}</Text>,
    labels: { confirm: t('shell.logoutConfirm'), cancel: t('shell.logoutCancel') },
    confirmProps: { color: 'red', 'data-testid': 'logout-confirm' } as Record<string, unknown>,
    cancelProps: { 'data-testid': 'logout-cancel' } as Record<string, unknown>,
    onConfirm,
  });
}
