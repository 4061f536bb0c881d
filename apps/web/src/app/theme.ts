import { STORAGE_KEYS } from '@ecoa/shared';
import {
  Badge,
  type CSSVariablesResolver,
  createTheme,
  localStorageColorSchemeManager,
  type MantineTheme,
} from '@mantine/core';
import { blend, reachContrast, relativeLuminance } from './contrast';

/**
 * Every text meets WCAG 2 AA contrast (4.5:1) in both themes; e2e/a11y.spec.ts checks each screen
 * with axe-core. Filled buttons and badges take each colour's darkest shade (white on teal-9 is
 * 5.0:1; on teal-7 it was 3.1:1), and autoContrast puts black text on a fill too light for white
 * (0.179 is the luminance where white and black give the same contrast).
 */
export const theme = createTheme({
  primaryColor: 'teal',
  primaryShade: { light: 9, dark: 9 },
  autoContrast: true,
  luminanceThreshold: 0.179,
  defaultRadius: 'md',
  fontFamily:
    'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", "Noto Sans CJK SC", sans-serif',
  headings: { fontWeight: '700' },
  components: {
    // A status is read whole ("CONCLUÍDA", not "CONCLUÍ…"): a badge never shrinks below its text,
    // in a row or a cell that is short of room (the row wraps or the cell grows instead).
    Badge: Badge.extend({ styles: { root: { minWidth: 'max-content' } } }),
  },
});

/** The theme choice persists under the spec's colour-mode key, as "light" or "dark". */
export const colorSchemeManager = localStorageColorSchemeManager({ key: STORAGE_KEYS.colorScheme });

/** What WCAG AA asks of normal-size text, plus a little for the browser's rounding of blended colours. */
export const MIN_TEXT_CONTRAST = 4.6;

/** The surfaces text sits on: page and cards, then the hover, striped and input shades. */
export const SURFACES = {
  light: ['#ffffff', '#f8f9fa', '#f1f3f5'],
  dark: ['#242424', '#2e2e2e', '#3b3b3b'],
} as const;

/**
 * Secondary ("dimmed") text. Mantine's gray-6 (3.3:1 on white) and dark-2 (3.5:1 on a dark card)
 * are too faint; these stay visibly quieter than the body text and pass on every surface above.
 */
export const DIMMED = { light: '#646b72', dark: '#a6a6a6' } as const;

type Shades = readonly string[];
const isHexPalette = (shades: unknown): shades is Shades =>
  Array.isArray(shades) && shades.length === 10 && shades.every((s) => /^#[0-9a-f]{6}$/i.test(s));

/**
 * Per colour, the variables Mantine derives from the primary shade (see its getCSSColorVariables),
 * moved just far enough toward black (light theme) or white (dark theme) to read on their
 * backgrounds: text and outline on the page surfaces, the light variant's text on its own tint
 * (badges, alerts, the sidebar's active entry), which Mantine's shades miss for most colours
 * (teal-9 on its tint is 4.4:1, yellow-9 2.7:1).
 */
function colorVariables(name: string, shades: Shades, scheme: 'light' | 'dark'): Record<string, string> {
  const v = (suffix: string) => `--mantine-color-${name}-${suffix}`;
  const fill = shades[9]!;
  // The filled hover moves away from the text colour autoContrast chose, never toward it.
  const onFill = contrastTextIsWhite(fill) ? '#000000' : '#ffffff';
  if (scheme === 'light') {
    const text = reachContrast(fill, [...SURFACES.light], '#000000', MIN_TEXT_CONTRAST);
    // The light variant's tint (hover opacity, the stronger) and, for the subtle variant, no tint.
    const tints = [...SURFACES.light, ...SURFACES.light.map((s) => blend(fill, s, 0.12))];
    return {
      [v('text')]: text,
      [v('outline')]: text,
      [v('light-color')]: reachContrast(fill, tints, '#000000', MIN_TEXT_CONTRAST),
      [v('filled-hover')]: blend(onFill, fill, 0.15),
    };
  }
  const tints = [...SURFACES.dark, ...SURFACES.dark.map((s) => blend(shades[7]!, s, 0.2))];
  return {
    [v('text')]: reachContrast(shades[4]!, [...SURFACES.dark], '#ffffff', MIN_TEXT_CONTRAST),
    [v('outline')]: reachContrast(shades[5]!, [...SURFACES.dark], '#ffffff', MIN_TEXT_CONTRAST),
    [v('light-color')]: reachContrast(shades[4]!, tints, '#ffffff', MIN_TEXT_CONTRAST),
    [v('filled-hover')]: blend(onFill, fill, 0.15),
  };
}

/** Whether autoContrast (threshold above) writes white on this fill. */
const contrastTextIsWhite = (fill: string) => relativeLuminance(fill) <= 0.179;

function schemeVariables(t: MantineTheme, scheme: 'light' | 'dark'): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const [name, shades] of Object.entries(t.colors)) {
    if (isHexPalette(shades)) Object.assign(variables, colorVariables(name, shades, scheme));
  }
  return {
    ...variables,
    '--mantine-color-dimmed': DIMMED[scheme],
    '--mantine-color-anchor': `var(--mantine-color-${t.primaryColor}-text)`,
    // Mantine's error red (red-6 light, red-8 dark) is under 4.5:1 as text on either page.
    '--mantine-color-error': 'var(--mantine-color-red-text)',
  };
}

/**
 * Dark theme: Mantine's disabled buttons (dark-6 on dark-7 cards) were nearly invisible; one step
 * lighter keeps them clearly disabled but readable.
 */
export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: schemeVariables(t, 'light'),
  dark: {
    ...schemeVariables(t, 'dark'),
    '--mantine-color-disabled': 'var(--mantine-color-dark-5)',
    '--mantine-color-disabled-color': 'var(--mantine-color-dark-2)',
  },
});
