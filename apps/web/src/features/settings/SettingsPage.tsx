import { Grid, Skeleton, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { PageHeader } from '../../ui/PageHeader';
import { ApiKeysCard } from '../api-keys';
import { WebhooksCard } from '../webhooks';
import { PictureCard } from './PictureCard';
import { ProfileCard } from './ProfileCard';
import { settingsKeys } from './queryKeys';
import { SessionsCard } from './SessionsCard';
import { settingsApi } from './settingsApi';

/** `/configuracoes`: the signed-in user's own account — profile, picture, sessions and API keys. */
export function SettingsPage() {
  const { t } = useTranslation();
  const profile = useQuery({ queryKey: settingsKeys.profile, queryFn: settingsApi.profile });

  return (
    <Stack gap="lg" data-testid="settings-page">
      <PageHeader title={t('nav.settings')} subtitle={t('settings.subtitle')} />
      {profile.isPending ? (
        <Grid gutter="lg" data-testid="settings-loading">
          <Grid.Col span={{ base: 12, md: 8 }}>
            <Skeleton h={330} radius="lg" />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 4 }}>
            <Skeleton h={330} radius="lg" />
          </Grid.Col>
        </Grid>
      ) : profile.isError ? (
        <LoadErrorAlert query={profile} fallbackKey="settings.loadFailed" data-testid="settings-error" />
      ) : (
        <Grid gutter="lg" align="stretch">
          <Grid.Col span={{ base: 12, md: 8 }}>
            <ProfileCard profile={profile.data} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 4 }}>
            <PictureCard profile={profile.data} />
          </Grid.Col>
        </Grid>
      )}
      <ApiKeysCard />
      <SessionsCard />
      <WebhooksCard />
    </Stack>
  );
}
