import { Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CampaignsBrowser } from './CampaignsBrowser';

/** `/campanhas-por-usuario` (administrators): every user's campaigns, with pause and cancel (audited). */
export function AdminCampaignsPage() {
  const { t } = useTranslation();
  return (
    <Stack gap="lg" data-testid="admin-campaigns-page">
      <Stack gap={4}>
        <Title order={2}>{t('nav.campaignsPerUser')}</Title>
        <Text c="dimmed" size="sm">
          {t('campaigns.adminIntro')}
        </Text>
      </Stack>
      <CampaignsBrowser admin />
    </Stack>
  );
}
