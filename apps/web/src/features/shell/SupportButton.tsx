import { ActionIcon, Tooltip } from '@mantine/core';
import { IconBrandWhatsapp } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { track } from '../../platform/analytics';
import { supportChatUrl, useSupportWhatsapp } from '../../platform/support';

/** The floating green contact button (spec section 2). */
export function SupportButton() {
  const { t } = useTranslation();
  const number = useSupportWhatsapp();
  return (
    <Tooltip label={t('shell.support')} position="left" withArrow>
      <ActionIcon
        component="a"
        // No link until the server has said which number (never a placeholder).
        href={number ? supportChatUrl(number, t('shell.supportMessage')) : undefined}
        target="_blank"
        rel="noopener noreferrer"
        onClick={() => track('whatsapp')}
        size={56}
        radius="xl"
        color="#25D366"
        variant="filled"
        aria-label={t('shell.support')}
        data-testid="support-button"
        style={{ position: 'fixed', right: 24, bottom: 24, zIndex: 150, boxShadow: 'var(--mantine-shadow-lg)' }}
      >
        <IconBrandWhatsapp size={30} />
      </ActionIcon>
    </Tooltip>
  );
}
