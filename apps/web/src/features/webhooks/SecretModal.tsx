import { ActionIcon, Alert, Button, Code, CopyButton, Group, Modal, Stack, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

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
      <Stack gap="md" data-testid="webhook-secret-modal">
        <Alert color="yellow" icon={<IconAlertTriangle size={18} />}>
          {t(rotated ? 'webhooks.secret.rotatedNote' : 'webhooks.secret.once')}
        </Alert>
        <Group gap="xs" wrap="nowrap" align="center">
          <Code block style={{ flex: 1, wordBreak: 'break-all', whiteSpace: 'pre-wrap' }} data-testid="webhook-secret">
            {secret}
          </Code>
          <CopyButton value={secret ?? ''}>
            {({ copied, copy }) => (
              <Tooltip label={t(copied ? 'webhooks.secret.copied' : 'webhooks.secret.copy')}>
                <ActionIcon
                  variant="light"
                  color={copied ? 'teal' : 'gray'}
                  size="lg"
                  onClick={copy}
                  aria-label={t('webhooks.secret.copy')}
                  data-testid="webhook-secret-copy"
                >
                  {copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
                </ActionIcon>
              </Tooltip>
            )}
          </CopyButton>
        </Group>
        <Text size="sm" c="dimmed">
          {t('webhooks.secret.verify')}
        </Text>
        <Group justify="flex-end">
          <Button onClick={onClose} data-testid="webhook-secret-done">
            {t('webhooks.secret.done')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
