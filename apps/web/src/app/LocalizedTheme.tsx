import { CloseButton, type CloseButtonProps, createTheme, MantineThemeProvider } from '@mantine/core';
import { type ReactNode, useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Theme defaults that need the interface language, layered over the app's theme. Mantine's close
 * buttons (modals, drawers, confirm dialogs, notifications) are icons with no accessible name; each
 * gets "Fechar" / "Close" / "关闭" unless its own aria-label says more.
 */
export function LocalizedTheme({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const close = t('app.close');
  const theme = useMemo(() => {
    // CloseButton passes unknown props on to its <button>; its props type just does not list aria-label.
    const defaultProps: Partial<CloseButtonProps> & { 'aria-label': string } = { 'aria-label': close };
    return createTheme({ components: { CloseButton: CloseButton.extend({ defaultProps }) } });
  }, [close]);
  return <MantineThemeProvider theme={theme}>{children}</MantineThemeProvider>;
}
