import { Button, Stack } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../platform/SessionProvider';
import { PageHeader } from '../../ui/PageHeader';
import { ChannelsHealthPanel, TestSendDialog } from '../channels';
import { CampaignsBrowser } from './CampaignsBrowser';

/** `/campanhas`: the user's campaigns, live; a test send on any channel; the carriers' health for administrators. */
export function CampaignsPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const [testing, setTesting] = useState(false);
  return (
    <Stack gap="lg">
      <PageHeader
        title={t('nav.campaigns')}
        // "Create campaign" is the header's button (the onboarding popover hangs below it).
        actions={
          <Button
            variant="default"
            leftSection={<IconSend size={18} />}
            onClick={() => setTesting(true)}
            data-testid="open-test-send"
          >
            {t('channels.testSend.open')}
          </Button>
        }
      />
      <CampaignsBrowser />
      {user?.accessLevel === 'ADMINISTRATOR' && <ChannelsHealthPanel />}
      <TestSendDialog opened={testing} onClose={() => setTesting(false)} />
    </Stack>
  );
}
