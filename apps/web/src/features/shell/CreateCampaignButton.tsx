import { ROUTES } from '@ecoa/shared';
import { Button, Group, Popover, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** The header's create-campaign button; a first-time user sees an onboarding popover beside it. */
export function CreateCampaignButton({ isNewUser, compact }: { isNewUser: boolean; compact?: boolean }) {
  const { t } = useTranslation();
  const [onboardingOpen, setOnboardingOpen] = useState(isNewUser);
  return (
    <Popover opened={onboardingOpen} position="bottom" withArrow shadow="lg" width={280} trapFocus={false}>
      <Popover.Target>
        <Button
          component={Link}
          to={ROUTES.createCampaign}
          leftSection={<IconPlus size={16} />}
          size={compact ? 'xs' : 'sm'}
          data-testid="create-campaign"
          onClick={() => setOnboardingOpen(false)}
        >
          {t('shell.createCampaign')}
        </Button>
      </Popover.Target>
      <Popover.Dropdown data-testid="onboarding-popover">
        <Text fw={700} size="sm" mb={4}>
          {t('onboarding.title')}
        </Text>
        <Text size="sm" c="dimmed" mb="sm">
          {t('onboarding.body')}
        </Text>
        <Group justify="flex-end">
          <Button size="xs" variant="light" onClick={() => setOnboardingOpen(false)}>
            {t('onboarding.dismiss')}
          </Button>
        </Group>
      </Popover.Dropdown>
    </Popover>
  );
}
