import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../platform/SessionProvider';
import { PageHeader } from '../../ui/PageHeader';
import { ChannelsHealthPanel, TestSendButton } from '../channels';
import { CampaignsBrowser } from './CampaignsBrowser';

/** `/campanhas`: the user's campaigns, live; a test send on any channel; the carriers' health for administrators. */
export function CampaignsPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  return (
    <Stack gap="lg">
      <PageHeader
        title={t('nav.campaigns')}
        // "Create campaign" is the header's button (the onboarding popover hangs below it).
        actions={<TestSendButton label={t('channels.testSend.open')} iconSize={18} data-testid="open-test-send" />}
      />
      <CampaignsBrowser />
      {user?.accessLevel === 'ADMINISTRATOR' && <ChannelsHealthPanel />}
    </Stack>
  );
}
