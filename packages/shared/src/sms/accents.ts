import { gsm7Septets } from './gsm7.ts';

/**
 * Typography that word processors and phones put in Portuguese text, brought to what GSM-7 has.
 * (Characters with a diacritic are handled by decomposition below, not listed here.)
 */
const REPLACEMENTS: Record<string, string> = {
  '\u2018': "'", // ‘
  '\u2019': "'", // ’
  '\u201a': "'",
  '\u00b4': "'", // ´
  '`': "'",
  '\u201c': '"', // “
  '\u201d': '"', // ”
  '\u201e': '"',
  '\u00ab': '"', // «
  '\u00bb': '"', // »
  '\u2013': '-', // –
  '\u2014': '-', // —
  '\u2212': '-',
  '\u2026': '...', // …
  '\u00a0': ' ', // no-break space
  '\u2007': ' ',
  '\u202f': ' ',
  '\u00ba': 'o', // º (nº)
  '\u00aa': 'a', // ª (1ª)
  '\u00b0': 'o', // ° (used for º)
  '\u2022': '-', // •
  '\u00b7': '-', // ·
  '\u00c7': '\u00c7', // Ç is GSM-7 (0x09): kept as it is
  '\u00e7': 'c', // ç has no GSM-7 code: c (Ç, the only cedilla, would shout)
};

/**
 * Brings Portuguese text to the GSM-7 alphabet so it costs 160 characters a part instead of 70.
 *
 * - A character GSM-7 already has stays, accents included: é É à ä ö ü ñ Ñ Ü Ä Ö Ç è ù ì ò Å.
 * - A letter with a diacritic GSM-7 lacks loses it: á â ã → a, ê → e, í → i, ó ô õ → o, ú → u,
 *   ç → c, and the capitals alike (Á À Â Ã → A, Ê È → E, Í Ì → I, Ó Ò Ô Õ → O, Ú Ù → U).
 * - Curly quotes, dashes, the ellipsis, no-break spaces, º/ª and bullets become their plain forms.
 * - Anything else (emoji, other scripts, symbols without a plain form) is kept as it is: the text
 *   then stays UCS-2, and `analyzeSms(...).nonGsmCharacters` says which characters cause it.
 */
export function removeAccents(text: string): string {
  let out = '';
  for (const char of text) {
    if (gsm7Septets(char) !== 0) {
      out += char;
      continue;
    }
    const replacement = REPLACEMENTS[char];
    if (replacement !== undefined) {
      out += replacement;
      continue;
    }
    // Decompose (á → a + U+0301) and drop the combining marks when what is left is GSM-7.
    const base = char.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
    out += base.length > 0 && [...base].every((c) => gsm7Septets(c) !== 0) ? base : char;
  }
  return out;
}
