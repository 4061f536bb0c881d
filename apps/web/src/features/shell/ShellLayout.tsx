import { BREAKPOINT_DRAWER_PX, BREAKPOINT_SIDEBAR_ITEMS_PX } from '@ecoa/shared';
import {
  ActionIcon,
  AppShell,
  Collapse,
  Drawer,
  Group,
  Stack,
  UnstyledButton,
  useComputedColorScheme,
  useMantineColorScheme,
  VisuallyHidden,
} from '@mantine/core';
import { useDisclosure, useLocalStorage, useMediaQuery } from '@mantine/hooks';
import { IconLogout, IconMenu2, IconMoon, IconSettings, IconSun } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { storage } from '../../platform/storage';
import { usePhone } from '../../ui/usePhone';
import { BalancePopover } from './BalancePopover';
import { CreateCampaignButton } from './CreateCampaignButton';
import { confirmLogout } from './confirmLogout';
import { type ShellUser, showsCreateCampaign } from './navigation';
import { Sidebar } from './Sidebar';
import { SupportButton } from './SupportButton';
import { UserAvatar, UserMenu } from './UserMenu';
import { shouldShowWelcome, WelcomeModal } from './WelcomeModal';

const EXPANDED_PX = 288; // 18rem
const COLLAPSED_PX = 80; // 5rem
/** The floating menu and support buttons: 56px high, 24px from the bottom, and a little air. */
const FLOATING_CLEARANCE_PX = 56 + 24 + 16;

type ShellLayoutProps = {
  user: ShellUser;
  /** The account's money in reais (the header's balance), from `useAccountBalance`. */
  money: number;
  onSignOut: () => void;
  onOpenCredits: () => void;
  children: ReactNode;
};

/** The authenticated frame (spec section 2): sidebar, header, welcome modal, support button. */
export function ShellLayout({ user, money, onSignOut, onOpenCredits, children }: ShellLayoutProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const isPhone = usePhone();
  // Spec breakpoints: 1024px for the sidebar's item rendering. Up to 1024px the items render as
  // icons (the 5rem sidebar, names in tooltips); wider, with their names ("open on wide screens").
  // That is the default: a choice made with the collapse button (stored) wins at any width.
  const narrow = useMediaQuery(`(max-width: ${BREAKPOINT_SIDEBAR_ITEMS_PX}px)`, undefined, {
    getInitialValueInEffect: false,
  });
  const [collapsedChoice, setCollapsedChoice] = useLocalStorage<boolean | null>({
    key: 'sidebar-collapsed',
    defaultValue: null,
  });
  const collapsed = collapsedChoice ?? narrow ?? false;
  const [drawerOpen, drawer] = useDisclosure(false);
  const [mobileMenuOpen, mobileMenu] = useDisclosure(false);
  const [closedModal, setClosedModal] = useState(storage.getClosedModal());
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('light');

  const welcomeOpen = shouldShowWelcome(pathname, user.isNewUser, closedModal);
  const closeWelcome = () => {
    storage.setClosedModal('false');
    setClosedModal('false');
  };
  const askLogout = () => confirmLogout(t, onSignOut);
  const onNavigate = () => {
    if (welcomeOpen) closeWelcome();
    drawer.close();
    mobileMenu.close();
  };

  const sidebar = (
    <Sidebar
      user={user}
      collapsed={!isPhone && collapsed}
      onToggleCollapsed={isPhone ? undefined : () => setCollapsedChoice(!collapsed)}
      onNavigate={onNavigate}
      onLogout={askLogout}
    />
  );

  return (
    <AppShell
      header={{ height: 64 }}
      navbar={{
        width: collapsed ? COLLAPSED_PX : EXPANDED_PX,
        breakpoint: BREAKPOINT_DRAWER_PX + 1,
        collapsed: { mobile: true },
      }}
      padding="lg"
    >
      <AppShell.Header>
        <Group h="100%" px="lg" justify="flex-end" wrap="nowrap">
          <Group gap={isPhone ? 'xs' : 'md'} wrap="nowrap">
            {showsCreateCampaign(pathname) && (
              // The welcome modal comes first; the onboarding popover once it is closed.
              <CreateCampaignButton
                // Not over the phone's open navigation drawer: the menu is what the user is using.
                showOnboarding={user.isNewUser && !welcomeOpen && !(isPhone && drawerOpen)}
                compact={isPhone}
              />
            )}
            <BalancePopover money={money} onOpenCredits={onOpenCredits} />
            {isPhone ? (
              <UnstyledButton onClick={mobileMenu.toggle} data-testid="user-menu">
                <VisuallyHidden>{t('shell.account')}</VisuallyHidden>
                <UserAvatar user={user} decorative />
              </UnstyledButton>
            ) : (
              <UserMenu user={user} onLogout={askLogout} />
            )}
          </Group>
        </Group>
      </AppShell.Header>

      {!isPhone && <AppShell.Navbar>{sidebar}</AppShell.Navbar>}
      <Drawer opened={isPhone && drawerOpen} onClose={drawer.close} size="18rem" padding={0} withCloseButton={false}>
        {sidebar}
      </Drawer>

      {/* On phones the page ends above the two floating buttons, so its last lines can be read and tapped. */}
      <AppShell.Main pb={isPhone ? FLOATING_CLEARANCE_PX : undefined}>
        {isPhone && (
          <Collapse in={mobileMenuOpen} data-testid="mobile-user-menu">
            <Stack
              gap={4}
              mb="md"
              p="sm"
              style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 8 }}
            >
              <UnstyledButton
                onClick={() => setColorScheme(scheme === 'dark' ? 'light' : 'dark')}
                data-testid="theme-toggle"
              >
                <Group gap={8}>
                  {scheme === 'dark' ? <IconSun size={16} /> : <IconMoon size={16} />}
                  {t(scheme === 'dark' ? 'shell.themeLight' : 'shell.themeDark')}
                </Group>
              </UnstyledButton>
              <UnstyledButton component={Link} to="/configuracoes" onClick={mobileMenu.close}>
                <Group gap={8}>
                  <IconSettings size={16} />
                  {t('nav.settings')}
                </Group>
              </UnstyledButton>
              <UnstyledButton onClick={askLogout} c="red" data-testid="menu-logout">
                <Group gap={8}>
                  <IconLogout size={16} />
                  {t('shell.logout')}
                </Group>
              </UnstyledButton>
            </Stack>
          </Collapse>
        )}
        {children}
      </AppShell.Main>

      <WelcomeModal opened={welcomeOpen} onClose={closeWelcome} />
      {isPhone && (
        // Spec: up to 768px the sidebar is "an overlay drawer opened by a floating menu button";
        // bottom left, across from the floating support button, within the thumb's reach.
        <ActionIcon
          variant="filled"
          size={56}
          radius="xl"
          onClick={drawer.open}
          aria-label={t('shell.openMenu')}
          data-testid="menu-button"
          style={{ position: 'fixed', left: 24, bottom: 24, zIndex: 150, boxShadow: 'var(--mantine-shadow-lg)' }}
        >
          <IconMenu2 size={26} />
        </ActionIcon>
      )}
      <SupportButton />
    </AppShell>
  );
}
