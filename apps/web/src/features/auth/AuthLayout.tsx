import { PRODUCT_NAME } from '@ecoa/shared';
import { Box, Group, Text, ThemeIcon, Title } from '@mantine/core';
import { IconChartDots3, IconListSearch, IconSend } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSwitcher } from '../../ui/LanguageSwitcher';
import { ThemeToggle } from '../../ui/ThemeToggle';
import classes from './AuthLayout.module.css';

function Logo() {
  return (
    <Group gap={10} wrap="nowrap" className={classes.logo}>
      <svg viewBox="0 0 64 64" width={36} height={36} aria-hidden="true" className={classes.logoMark}>
        <rect width="64" height="64" rx="14" fill="#fff" />
        <path d="M18 20h28v6H25v4h17v6H25v4h21v6H18z" fill="#0c8599" />
      </svg>
      <Text component="span" fw={800} fz={26} lh={1} c="white">
        {PRODUCT_NAME}
      </Text>
    </Group>
  );
}

/**
 * The unauthenticated screens' frame: a brand panel with the spec's tagline on the left and
 * the form on the right. At ≤600px the panel becomes a compact header above the form; from
 * 601px to 1024px it is narrower and keeps only the essentials.
 */
export function AuthLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const highlights = [
    { icon: IconListSearch, text: t('auth.brand.lists') },
    { icon: IconSend, text: t('auth.brand.campaigns') },
    { icon: IconChartDots3, text: t('auth.brand.automation') },
  ];
  return (
    <div className={classes.root}>
      <aside className={classes.brand} aria-label={PRODUCT_NAME}>
        <div className={classes.glow} aria-hidden="true" />
        <Logo />
        <div className={classes.pitch}>
          <Title order={1} className={classes.tagline}>
            {t('auth.brand.tagline')}
          </Title>
          <Text className={classes.lead}>{t('auth.brand.lead')}</Text>
          <ul className={classes.highlights}>
            {highlights.map(({ icon: Icon, text }) => (
              <li key={text}>
                <ThemeIcon size={38} radius="md" variant="white" color="teal" className={classes.highlightIcon}>
                  <Icon size={20} stroke={1.8} />
                </ThemeIcon>
                <Text component="span" fw={600}>
                  {text}
                </Text>
              </li>
            ))}
          </ul>
        </div>
        <div className={classes.brandFooter}>
          <Text size="sm" className={classes.channels}>
            {t('auth.brand.channels')}
          </Text>
          <Text size="xs" className={classes.rights}>
            © {new Date().getFullYear()} {PRODUCT_NAME}. {t('auth.brand.rights')}
          </Text>
        </div>
      </aside>
      <main className={classes.main}>
        <Group justify="flex-end" gap="sm" className={classes.toolbar}>
          <LanguageSwitcher />
          <ThemeToggle />
        </Group>
        <Box className={classes.formArea}>
          <div className={classes.card}>{children}</div>
        </Box>
      </main>
    </div>
  );
}
