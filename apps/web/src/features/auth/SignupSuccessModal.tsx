import { Button, Group, Modal, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconBrandWhatsapp, IconCircleCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { track } from '../../platform/analytics';
import { notify } from '../../platform/notify';
import { openSupportChat, useSupportWhatsapp } from '../../platform/support';
import type { SignupResult } from './SignupStep';

interface SignupSuccessModalProps {
  result: SignupResult | null;
  onClose: () => void;
}

/**
 * "Conta criada com sucesso!" (spec section 2, step 2): "Cancelar" closes it; "Falar com o
 * suporte" opens the support chat with the company name and e-mail prefilled, fires the
 * 'whatsapp' event and says so in an info toast.
 */
export function SignupSuccessModal({ result, onClose }: SignupSuccessModalProps) {
  const { t } = useTranslation();
  const supportNumber = useSupportWhatsapp();

  const talkToSupport = () => {
    if (!result) return;
    const opened = openSupportChat(
      supportNumber,
      t('auth.success.whatsappMessage', { company: result.company, email: result.email }),
    );
    if (!opened) {
      notify.error(t('errors.handoffFailed'));
      return;
    }
    track('whatsapp');
    notify.info(t('auth.success.redirecting'));
    onClose();
  };

  return (
    <Modal.Root opened={result !== null} onClose={onClose} centered size="md" radius="lg">
      <Modal.Overlay />
      <Modal.Content data-testid="signup-success">
        <Modal.Body p="xl">
          <Stack align="center" ta="center" gap="md">
            <ThemeIcon size={72} radius="xl" variant="light" color="teal">
              <IconCircleCheck size={42} stroke={1.6} />
            </ThemeIcon>
            <Modal.Title fz={22} fw={700} lh={1.3}>
              {t('auth.success.title')}
            </Modal.Title>
            <Text c="dimmed">{t('auth.success.body')}</Text>
            <Group justify="center" gap="sm" mt="sm">
              <Button variant="default" onClick={onClose} data-testid="signup-success-cancel">
                {t('auth.success.cancel')}
              </Button>
              <Button
                color="#128C7E"
                leftSection={<IconBrandWhatsapp size={18} />}
                onClick={talkToSupport}
                data-testid="signup-success-support"
              >
                {t('auth.success.support')}
              </Button>
            </Group>
          </Stack>
        </Modal.Body>
      </Modal.Content>
    </Modal.Root>
  );
}
