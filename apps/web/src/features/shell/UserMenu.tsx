import {
  Avatar,
  Group,
  Menu,
  Text,
  UnstyledButton,
  useComputedColorScheme,
  useMantineColorScheme,
  VisuallyHidden,
} from '@mantine/core';
import { IconChevronDown, IconLogout, IconMoon, IconSettings, IconSun } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { displayName, type ShellUser } from './navigation';

/**
 * `decorative`: inside a button whose name already says whose account it is, the picture (or the
 * initial drawn in its place) is hidden from assistive technology, so the button's visible text is
 * the name shown next to it (WCAG 2.5.3, label in name).
 */
export function UserAvatar({
  user,
  size = 34,
  decorative = false,
}: {
  user: ShellUser;
  size?: number;
  decorative?: boolean;
}) {
  return (
    <Avatar
      src={user.userProfileImageLink}
      alt={decorative ? '' : user.name}
      aria-hidden={decorative || undefined}
      radius="xl"
      size={size}
      color="teal"
    >
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
        {/* Named by its content, "Minha conta" (for screen readers) then the visible name: an
            aria-label would hide the visible text from the name (WCAG 2.5.3, label in name). */}
        <UnstyledButton data-testid="user-menu">
          <Group gap={8} wrap="nowrap">
            <VisuallyHidden>{t('shell.account')}</VisuallyHidden>
            <UserAvatar user={user} decorative />
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
