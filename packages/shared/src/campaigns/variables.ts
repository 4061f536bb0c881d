/**
 * The lists' variables in a campaign's texts: `{nome}`, `{telefone}` and any column of the lists
 * (its field key). The wizard's counter and the server render with this one function, so the
 * parts the user sees are the parts that are sent and paid.
 */

/** Every contact has these two; the other variables are the lists' columns. */
export const BUILT_IN_VARIABLES = ['nome', 'telefone'] as const;

const PLACEHOLDER = /\{([a-z0-9_]{1,64})\}/gi;

/** The variable names a text uses, in order of first use, lower-cased. */
export function variablesIn(text: string): string[] {
  const seen = new Set<string>();
  for (const m of text.matchAll(PLACEHOLDER)) seen.add(m[1]!.toLowerCase());
  return [...seen];
}

/**
 * Replaces each `{variable}` by the recipient's value (case-insensitive name; a missing value is
 * an empty string, never the placeholder itself). Text that is not a known placeholder is kept.
 */
export function renderVariables(
  text: string,
  values: Readonly<Record<string, string | null | undefined>>,
  known?: ReadonlySet<string>,
): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    const key = name.toLowerCase();
    if (known && !known.has(key)) return whole;
    return values[key] ?? '';
  });
}
