import { STORAGE_KEYS } from '@ecoa/shared';
import { type CSSVariablesResolver, createTheme, localStorageColorSchemeManager } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'teal',
  primaryShade: { light: 7, dark: 6 },
  defaultRadius: 'md',
  fontFamily:
    'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", "Noto Sans CJK SC", sans-serif',
  headings: { fontWeight: '700' },
});

/** The theme choice persists under the spec's colour-mode key, as "light" or "dark". */
export const colorSchemeManager = localStorageColorSchemeManager({ key: STORAGE_KEYS.colorScheme });

/**
 * Dark theme: Mantine's disabled buttons (dark-6 on dark-7 cards) were nearly invisible; one step
 * lighter keeps them clearly disabled but readable.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {},
  dark: {
    '--mantine-color-disabled': 'var(--mantine-color-dark-5)',
    '--mantine-color-disabled-color': 'var(--mantine-color-dark-2)',
  },
});
