import { ActionIcon, Badge, Box, Divider, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconChevronsLeft, IconChevronsRight, IconLogout } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { LanguageSwitcher } from '../../ui/LanguageSwitcher';
import { NavIcon } from './NavIcon';
import { canSee, isActive, NAV_ITEMS, type ShellUser } from './navigation';
import classes from './Sidebar.module.css';

type SidebarProps = {
  user: ShellUser;
  collapsed: boolean;
  onToggleCollapsed?: () => void;
  /** Any click on an entry (closes the welcome modal and, on phones, the drawer). */
  onNavigate: () => void;
  onLogout: () => void;
};

export function Sidebar({ user, collapsed, onToggleCollapsed, onNavigate, onLogout }: SidebarProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const items = NAV_ITEMS.filter((item) => canSee(item, user));

  return (
    <Box className={`${classes.root} ${collapsed ? classes.collapsed : ''}`} data-testid="sidebar">
      <Link to="/" className={classes.logo} onClick={onNavigate} aria-label="Ecoa">
        <img src="/favicon.svg" alt="" width={32} height={32} />
        {!collapsed && (
          <Text fw={800} size="xl" c="teal">
            Ecoa
          </Text>
        )}
      </Link>

      <Stack gap={4} component="nav" aria-label={t('shell.navigation')} style={{ flex: 1 }}>
        {items.map((item) => {
          const label = t(item.labelKey);
          const link = (
            <Link
              key={item.path}
              to={item.path}
              className={classes.item}
              data-active={isActive(item.path, pathname) || undefined}
              aria-current={isActive(item.path, pathname) ? 'page' : undefined}
              onClick={onNavigate}
              // Collapsed, the icon alone shows: the entry still needs its name (screen readers, voice control).
              aria-label={collapsed ? label : undefined}
              data-testid={`nav-${item.icon}`}
            >
              <NavIcon name={item.icon} />
              {!collapsed && <span style={{ flex: 1 }}>{label}</span>}
              {!collapsed && item.badgeKey && (
                <Badge size="xs" color="teal" variant="filled" className={classes.badge}>
                  {t(item.badgeKey)}
                </Badge>
              )}
            </Link>
          );
          return collapsed ? (
            <Tooltip key={item.path} label={label} position="right" withArrow>
              {link}
            </Tooltip>
          ) : (
            link
          );
        })}
      </Stack>

      <Divider />
      <Stack gap="xs" align={collapsed ? 'center' : 'stretch'}>
        <LanguageSwitcher compact={collapsed} />
        <Tooltip label={t('shell.logout')} position="right" withArrow disabled={!collapsed}>
          <UnstyledButton
            className={classes.item}
            onClick={onLogout}
            aria-label={collapsed ? t('shell.logout') : undefined}
            data-testid="sidebar-logout"
          >
            <IconLogout size={20} stroke={1.7} />
            {!collapsed && <span>{t('shell.logout')}</span>}
          </UnstyledButton>
        </Tooltip>
        {onToggleCollapsed && (
          <ActionIcon
            variant="subtle"
            color="gray"
            onClick={onToggleCollapsed}
            aria-label={t(collapsed ? 'shell.expand' : 'shell.collapse')}
            data-testid="sidebar-collapse"
            style={{ alignSelf: collapsed ? 'center' : 'flex-end' }}
          >
            {collapsed ? <IconChevronsRight size={18} /> : <IconChevronsLeft size={18} />}
          </ActionIcon>
        )}
      </Stack>
    </Box>
  );
}
