import { ROUTES } from '@ecoa/shared';
import { ActionIcon, Button, Group, getDefaultZIndex, Popover, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { storage } from '../../platform/storage';

type CreateCampaignButtonProps = {
  /** A first-time user (isNewUser) sees the onboarding popover, until they dismiss it. */
  showOnboarding: boolean;
  /** Phones: an icon-only button, so the header fits 375px. */
  compact?: boolean;
};

/** The header's create-campaign button; a first-time user sees an onboarding popover beside it. */
export function CreateCampaignButton({ showOnboarding, compact }: CreateCampaignButtonProps) {
  const { t } = useTranslation();
  // Dismissed once (the "Entendi" button or the button itself), it stays closed on this browser.
  const [dismissed, setDismissed] = useState(storage.isOnboardingDismissed);
  const dismiss = () => {
    storage.dismissOnboarding();
    setDismissed(true);
  };
  const label = t('shell.createCampaign');
  return (
    <Popover
      opened={showOnboarding && !dismissed}
      position="bottom"
      withArrow
      shadow="lg"
      width={280}
      trapFocus={false}
      // Above the header, below modals and the phone's navigation drawer: a dialog or the open
      // menu is what the user is doing, the tip waits behind it.
      zIndex={getDefaultZIndex('modal') - 1}
    >
      <Popover.Target>
        {compact ? (
          <ActionIcon
            component={Link}
            to={ROUTES.createCampaign}
            size="lg"
            radius="md"
            aria-label={label}
            title={label}
            data-testid="create-campaign"
            onClick={dismiss}
          >
            <IconPlus size={18} />
          </ActionIcon>
        ) : (
          <Button
            component={Link}
            to={ROUTES.createCampaign}
            leftSection={<IconPlus size={16} />}
            data-testid="create-campaign"
            onClick={dismiss}
          >
            {label}
          </Button>
        )}
      </Popover.Target>
      <Popover.Dropdown data-testid="onboarding-popover">
        <Text fw={700} size="sm" mb={4}>
          {t('onboarding.title')}
        </Text>
        <Text size="sm" c="dimmed" mb="sm">
          {t('onboarding.body')}
        </Text>
        <Group justify="flex-end">
          <Button size="xs" variant="light" onClick={dismiss}>
            {t('onboarding.dismiss')}
          </Button>
        </Group>
      </Popover.Dropdown>
    </Popover>
  );
}
