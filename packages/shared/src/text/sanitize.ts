/**
 * The one text sanitizer for everything that enters the database from outside: spreadsheet
 * cells, names, custom fields, opt-out files, and later campaign texts, audio names, CNPJ files
 * and webhook payloads.
 *
 * Disallowed: NUL and the other C0 control characters except tab, line feed and carriage
 * return; DEL and the C1 controls (U+007F–U+009F, never typed, only left by broken encodings);
 * lone UTF-16 surrogates (PostgreSQL's jsonb refuses their `\udXXX` escapes, and UTF-8 cannot
 * hold them); the noncharacters U+FFFE and U+FFFF (a UTF-16 BOM read the wrong way round).
 * PostgreSQL refuses NUL in text and jsonb, so one such byte used to fail a whole import.
 *
 * Text from files is cleaned (`sanitizeText`: the characters are dropped, the rest kept); text
 * typed into the API is checked (`firstDisallowedCharacter`) and refused with a clear reason,
 * since a form never sends these characters.
 */

/** True for a UTF-16 code unit that may never be stored (surrogates are checked in pairs by the callers). */
function isDisallowedUnit(c: number): boolean {
  if (c < 0x20) return c !== 0x09 && c !== 0x0a && c !== 0x0d;
  if (c < 0x7f) return false;
  if (c <= 0x9f) return true;
  return c === 0xfffe || c === 0xffff;
}

/** Where the first disallowed character of `value` is (a UTF-16 index), or -1 when it is clean. */
export function firstDisallowedCharacter(value: string): number {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    // The fast path: printable ASCII and most of the BMP.
    if (c >= 0x20 && c < 0x7f) continue;
    if (c >= 0xd800 && c <= 0xdfff) {
      const next = value.charCodeAt(i + 1);
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      return i;
    }
    if (isDisallowedUnit(c)) return i;
  }
  return -1;
}

export type SanitizeOptions = {
  /** Keep line breaks and tabs (a message text); otherwise each becomes a space (a name, a cell). */
  multiline?: boolean;
};

/**
 * `value` without the disallowed characters. Single-line text (the default) also turns tabs and
 * line breaks into spaces. Returns `value` itself when nothing changes, so clean text costs one
 * scan and no allocation.
 */
export function sanitizeText(value: string, options: SanitizeOptions = {}): string {
  const multiline = options.multiline === true;
  let i = 0;
  for (; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f) continue;
    if (!multiline && (c === 0x09 || c === 0x0a || c === 0x0d)) break;
    if (c >= 0xd800 && c <= 0xdfff) {
      const next = value.charCodeAt(i + 1);
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      break;
    }
    if (isDisallowedUnit(c)) break;
  }
  if (i === value.length) return value;

  let out = value.slice(0, i);
  for (; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) {
      const next = value.charCodeAt(i + 1);
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        out += value[i]! + value[i + 1]!;
        i++;
      }
      continue;
    }
    if (c === 0x09 || c === 0x0a || c === 0x0d) {
      if (multiline) out += value[i]!;
      else if (!out.endsWith(' ')) out += ' ';
      continue;
    }
    if (isDisallowedUnit(c)) continue;
    out += value[i]!;
  }
  return out;
}

/** The name of a character for an error message: `U+0000`. */
export function describeCharacter(value: string, index: number): string {
  return `U+${value.charCodeAt(index).toString(16).toUpperCase().padStart(4, '0')}`;
}
