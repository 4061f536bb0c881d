import { Text } from '@mantine/core';
import type { TFunction } from 'i18next';
import { openConfirmDialog } from '../../ui/ConfirmDialog';

/** "Tem certeza que deseja sair da plataforma?" — "Sim, Sair" / "Fechar". */
export function confirmLogout(t: TFunction, onConfirm: () => void) {
  openConfirmDialog({
    centered: true,
    withCloseButton: false,
    body: <Text data-testid="logout-question">{t('shell.logoutQuestion')}</Text>,
    confirmLabel: t('shell.logoutConfirm'),
    cancelLabel: t('shell.logoutCancel'),
    confirmTestId: 'logout-confirm',
    cancelTestId: 'logout-cancel',
    onConfirm,
  });
}
