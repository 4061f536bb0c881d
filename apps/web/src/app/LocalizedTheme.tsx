import {
  CloseButton,
  type CloseButtonProps,
  createTheme,
  MantineThemeProvider,
  Pagination,
  type PaginationProps,
  Progress,
  type ProgressProps,
} from '@mantine/core';
import { type ReactNode, useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Theme defaults that need the interface language, layered over the app's theme. Mantine draws
 * some controls as bare icons or bars with no accessible name (axe: button-name,
 * aria-progressbar-name); each gets one in the interface language unless its own props say more:
 * - close buttons (modals, drawers, confirm dialogs, notifications): "Fechar" / "Close" / "关闭";
 * - the pagination's first/previous/next/last arrows: "Página anterior", "Próxima página"…;
 * - progress bars: "Progresso" (a bar that knows what it measures names it, as campaigns do).
 */
export function LocalizedTheme({ children }: { children: ReactNode }) {
  // react-i18next hands out a new `t` when the language changes: the names follow it.
  const { t } = useTranslation();
  const theme = useMemo(() => {
    // CloseButton passes unknown props on to its <button>; its props type just does not list aria-label.
    const closeProps: Partial<CloseButtonProps> & { 'aria-label': string } = { 'aria-label': t('app.close') };
    const controlNames = {
      first: t('app.a11y.firstPage'),
      previous: t('app.a11y.previousPage'),
      next: t('app.a11y.nextPage'),
      last: t('app.a11y.lastPage'),
    };
    const paginationProps: Partial<PaginationProps> = {
      getControlProps: (control) => ({ 'aria-label': controlNames[control] }),
    };
    const progressProps: Partial<ProgressProps> & { 'aria-label': string } = { 'aria-label': t('app.a11y.progress') };
    return createTheme({
      components: {
        CloseButton: CloseButton.extend({ defaultProps: closeProps }),
        Pagination: Pagination.extend({ defaultProps: paginationProps }),
        Progress: Progress.extend({ defaultProps: progressProps }),
      },
    });
  }, [t]);
  return <MantineThemeProvider theme={theme}>{children}</MantineThemeProvider>;
}
