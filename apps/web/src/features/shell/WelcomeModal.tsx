import { Button, Modal, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconGift } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/**
 * Spec: shown on `/` to a new user until dismissed (closedModal = 'false'); clicking any sidebar
 * item also closes it. It sits just below the shell's header and sidebar (z-index 100) so those
 * stay clickable over its overlay: one click on an entry both closes it and navigates.
 */
export function WelcomeModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      centered
      withCloseButton
      zIndex={99}
      trapFocus={false}
      data-testid="welcome-modal"
      size="md"
    >
      <Stack align="center" ta="center" gap="md" pb="md">
        <ThemeIcon size={64} radius="xl" variant="light" color="teal">
          <IconGift size={34} />
        </ThemeIcon>
        <Title order={3}>{t('welcome.title')}</Title>
        <Text>{t('welcome.body')}</Text>
        {/* No focus trap (the sidebar stays usable over it), so it is given focus itself when it opens. */}
        <Button ref={(button) => button?.focus()} onClick={onClose} data-testid="welcome-close">
          {t('welcome.action')}
        </Button>
      </Stack>
    </Modal>
  );
}

/** The spec's rule for showing the welcome modal. */
export function shouldShowWelcome(pathname: string, isNewUser: boolean, closedModal: string | null): boolean {
  return pathname === '/' && isNewUser && closedModal !== 'false';
}
