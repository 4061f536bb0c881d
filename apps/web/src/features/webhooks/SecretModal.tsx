import { Modal, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { SecretOnce } from '../../ui/SecretOnce';

/** The signing secret, shown this once (after create or rotate), with copy. */
export function SecretModal({
  secret,
  rotated,
  onClose,
}: {
  secret: string | null;
  rotated: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal opened={secret !== null} onClose={onClose} title={t('webhooks.secret.title')} size="lg" centered>
      <SecretOnce
        value={secret ?? ''}
        warning={t(rotated ? 'webhooks.secret.rotatedNote' : 'webhooks.secret.once')}
        labels={{
          copy: t('webhooks.secret.copy'),
          copied: t('webhooks.secret.copied'),
          done: t('webhooks.secret.done'),
        }}
        onDone={onClose}
        testIds={{
          root: 'webhook-secret-modal',
          value: 'webhook-secret',
          copy: 'webhook-secret-copy',
          done: 'webhook-secret-done',
        }}
      >
        <Text size="sm" c="dimmed">
          {t('webhooks.secret.verify')}
        </Text>
      </SecretOnce>
    </Modal>
  );
}
