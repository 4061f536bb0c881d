import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../ui/PageHeader';
import { CampaignsBrowser } from './CampaignsBrowser';

/** `/campanhas-por-usuario` (administrators): every user's campaigns, with pause and cancel (audited). */
export function AdminCampaignsPage() {
  const { t } = useTranslation();
  return (
    <Stack gap="lg" data-testid="admin-campaigns-page">
      <PageHeader title={t('nav.campaignsPerUser')} subtitle={t('campaigns.adminIntro')} />
      <CampaignsBrowser admin />
    </Stack>
  );
}
