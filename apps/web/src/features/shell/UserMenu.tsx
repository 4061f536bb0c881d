import {
  Avatar,
  Group,
  Menu,
  Text,
  UnstyledButton,
  useComputedColorScheme,
  useMantineColorScheme,
} from '@mantine/core';
import { IconChevronDown, IconLogout, IconMoon, IconSettings, IconSun } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { displayName, type ShellUser } from './navigation';

export function UserAvatar({ user, size = 34 }: { user: ShellUser; size?: number }) {
  return (
    <Avatar src={user.userProfileImageLink} alt={user.name} radius="xl" size={size} color="teal">
      {user.name.trim().charAt(0).toUpperCase()}
    </Avatar>
  );
}

/** Desktop: the avatar opens a menu with the theme toggle, settings and logout. */
export function UserMenu({ user, onLogout }: { user: ShellUser; onLogout: () => void }) {
  const { t } = useTranslation();
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('light');
  return (
    <Menu position="bottom-end" withArrow shadow="md" width={220}>
      <Menu.Target>
        <UnstyledButton data-testid="user-menu" aria-label={t('shell.account')}>
          <Group gap={8} wrap="nowrap">
            <UserAvatar user={user} />
            <Text size="sm" fw={600} data-testid="user-name">
              {displayName(user.name)}
            </Text>
            <IconChevronDown size={14} />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{user.email}</Menu.Label>
        <Menu.Item
          leftSection={scheme === 'dark' ? <IconSun size={16} /> : <IconMoon size={16} />}
          onClick={() => setColorScheme(scheme === 'dark' ? 'light' : 'dark')}
          data-testid="theme-toggle"
        >
          {t(scheme === 'dark' ? 'shell.themeLight' : 'shell.themeDark')}
        </Menu.Item>
        <Menu.Item component={Link} to="/configuracoes" leftSection={<IconSettings size={16} />}>
          {t('nav.settings')}
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item color="red" leftSection={<IconLogout size={16} />} onClick={onLogout} data-testid="menu-logout">
          {t('shell.logout')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
