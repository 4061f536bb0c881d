import { Button, Card, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconSend, IconTools } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../auth/SessionProvider';
import { ChannelsHealthPanel } from '../channels/ChannelsHealthPanel';
import { TestSendDialog } from '../channels/TestSendDialog';

/**
 * `/campanhas`. The campaign list and wizard arrive with the campaigns issue; today the page
 * already sends a test on any channel, and shows administrators the carriers' health.
 */
export function CampaignsPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const [testing, setTesting] = useState(false);
  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={2}>{t('nav.campaigns')}</Title>
        <Button leftSection={<IconSend size={18} />} onClick={() => setTesting(true)} data-testid="open-test-send">
          {t('channels.testSend.open')}
        </Button>
      </Group>
      <Card withBorder padding="xl">
        <Stack align="center" gap="xs" maw={460} mx="auto" ta="center" py="lg">
          <ThemeIcon size={56} radius="xl" variant="light">
            <IconTools size={28} />
          </ThemeIcon>
          <Text fw={600}>{t('placeholder.title')}</Text>
          <Text c="dimmed" size="sm">
            {t('channels.testSend.intro')}
          </Text>
        </Stack>
      </Card>
      {user?.accessLevel === 'ADMINISTRATOR' && <ChannelsHealthPanel />}
      <TestSendDialog opened={testing} onClose={() => setTesting(false)} />
    </Stack>
  );
}
