import { PRODUCT_NAME } from '@ecoa/shared';
import { Anchor, AppShell, Button, Group, Text } from '@mantine/core';
import { IconLogout } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet } from 'react-router';
import { useSession } from '../auth/SessionProvider';
import { LanguageSwitcher } from './LanguageSwitcher';
import { ThemeToggle } from './ThemeToggle';

/** The frame around every page. The full sidebar and header arrive with the shell issue. */
export function AppShellLayout() {
  const { t } = useTranslation();
  const { user, signOut } = useSession();
  return (
    <AppShell header={{ height: 60 }} padding="lg">
      <AppShell.Header>
        <Group h="100%" px="lg" justify="space-between">
          <Anchor component={Link} to="/" underline="never">
            <Text fw={800} size="xl" c="teal">
              {PRODUCT_NAME}
            </Text>
          </Anchor>
          <Group gap="sm">
            <LanguageSwitcher />
            <ThemeToggle />
            {/* Temporary sign-out until the full shell arrives (issue 4). */}
            <Text size="sm" fw={600} visibleFrom="sm" data-testid="user-name">
              {user?.name}
            </Text>
            <Button
              variant="default"
              size="xs"
              leftSection={<IconLogout size={14} />}
              onClick={() => void signOut()}
              data-testid="sign-out"
            >
              {t('shell.logout')}
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
