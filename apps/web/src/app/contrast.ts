/**
 * WCAG 2 contrast arithmetic for the theme (sRGB hex colours only): the ratio between two colours,
 * a colour laid over another with some opacity, and a colour moved toward black or white until it
 * reads against its backgrounds.
 */
type Rgb = [number, number, number];

function parseHex(hex: string): Rgb {
  const digits = hex.replace('#', '');
  const full = digits.length === 3 ? [...digits].map((d) => d + d).join('') : digits;
  if (!/^[0-9a-f]{6}$/i.test(full)) throw new Error(`not a #rrggbb colour: ${hex}`);
  return [0, 2, 4].map((i) => Number.parseInt(full.slice(i, i + 2), 16)) as Rgb;
}

function toHex(rgb: Rgb): string {
  return `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;
}

/** WCAG relative luminance (0 black … 1 white). */
export function relativeLuminance(hex: string): number {
  const [r, g, b] = parseHex(hex).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** `color` at `opacity` over `background`, as the browser paints it. */
export function blend(color: string, background: string, opacity: number): string {
  const fg = parseHex(color);
  const bg = parseHex(background);
  return toHex(fg.map((c, i) => c * opacity + bg[i]! * (1 - opacity)) as Rgb);
}

/**
 * `color` itself when it reaches `min` against every background, otherwise the first mix of it
 * toward `toward` (black on light surfaces, white on dark ones), in 2% steps, that does: the hue
 * stays, only as much lightness changes as the contrast needs.
 */
export function reachContrast(color: string, backgrounds: string[], toward: string, min: number): string {
  for (let step = 0; step <= 50; step++) {
    const candidate = blend(toward, color, step / 50);
    if (backgrounds.every((bg) => contrastRatio(candidate, bg) >= min)) return candidate;
  }
  throw new Error(`${color} cannot reach ${min}:1 against ${backgrounds.join(', ')}`);
}
