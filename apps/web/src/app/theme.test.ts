import { DEFAULT_THEME, getContrastColor, mergeMantineTheme } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { blend, contrastRatio, reachContrast } from './contrast';
import { cssVariablesResolver, DIMMED, SURFACES, theme } from './theme';

/**
 * Every colour of the theme, not only those the screens use today (e2e/a11y.spec.ts checks the
 * screens): a badge, alert or button in any colour and variant reads at WCAG AA's 4.5:1.
 */
const AA = 4.5;
const full = mergeMantineTheme(DEFAULT_THEME, theme);
const resolved = cssVariablesResolver(full);
const palettes = Object.entries(full.colors) as [string, readonly string[]][];
const WHITE = '#ffffff';
const BLACK = '#000000';

describe('contrast arithmetic', () => {
  it('matches the WCAG figures', () => {
    expect(contrastRatio(WHITE, BLACK)).toBeCloseTo(21, 5);
    expect(contrastRatio('#767676', WHITE)).toBeCloseTo(4.54, 2);
    expect(contrastRatio(WHITE, '#767676')).toBe(contrastRatio('#767676', WHITE));
    expect(blend(BLACK, WHITE, 0.5)).toBe('#808080');
  });

  it('moves a colour only as far as needed', () => {
    expect(reachContrast('#495057', [WHITE], BLACK, AA)).toBe('#495057');
    const darker = reachContrast('#868e96', [WHITE], BLACK, AA);
    expect(contrastRatio(darker, WHITE)).toBeGreaterThanOrEqual(AA);
    expect(contrastRatio(blend(WHITE, darker, 0.04), WHITE)).toBeLessThan(AA);
    expect(() => reachContrast('#808080', ['#808080'], '#808080', AA)).toThrow();
  });
});

describe.each(['light', 'dark'] as const)('%s theme', (scheme) => {
  const vars = resolved[scheme];
  const surfaces = [...SURFACES[scheme]];

  it('dimmed text reads on every surface', () => {
    expect(vars['--mantine-color-dimmed']).toBe(DIMMED[scheme]);
    for (const bg of surfaces) expect(contrastRatio(DIMMED[scheme], bg)).toBeGreaterThanOrEqual(AA);
  });

  it.each(palettes)('%s: text, outline and light variant read on their backgrounds', (name, shades) => {
    const text = vars[`--mantine-color-${name}-text`]!;
    const outline = vars[`--mantine-color-${name}-outline`]!;
    const lightColor = vars[`--mantine-color-${name}-light-color`]!;
    // Mantine's light variant background: the primary shade at 10% (light), shade 7 at 15% (dark); hover 12% / 20%.
    const [tintShade, tintOpacity] = scheme === 'light' ? [shades[9]!, 0.12] : [shades[7]!, 0.2];
    for (const bg of surfaces) {
      expect(contrastRatio(text, bg)).toBeGreaterThanOrEqual(AA);
      expect(contrastRatio(outline, bg)).toBeGreaterThanOrEqual(AA);
      expect(contrastRatio(lightColor, bg)).toBeGreaterThanOrEqual(AA);
      expect(contrastRatio(lightColor, blend(tintShade, bg, tintOpacity))).toBeGreaterThanOrEqual(AA);
    }
  });

  it.each(palettes)('%s: the filled variant, and its hover, read with the text autoContrast picks', (name, shades) => {
    const fill = shades[9]!;
    const onFill = getContrastColor({ color: name, theme: full }) === 'var(--mantine-color-white)' ? WHITE : BLACK;
    expect(contrastRatio(onFill, fill)).toBeGreaterThanOrEqual(AA);
    expect(contrastRatio(onFill, vars[`--mantine-color-${name}-filled-hover`]!)).toBeGreaterThanOrEqual(AA);
  });
});
