/**
 * The GSM 03.38 (3GPP TS 23.038) default alphabet and its extension table, as SMPP carries it
 * with data_coding 0: one septet per octet ("unpacked"), an extension character as ESC (0x1B)
 * followed by its code, so it counts as two characters against the 160/153 limits.
 */

/** The basic table, in code order: the character at index n has the septet n (0x1B is ESC). */
const BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\x1bÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' +
  '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';

/** The extension table: character → the septet that follows ESC. */
const EXTENSION: ReadonlyArray<readonly [string, number]> = [
  ['\f', 0x0a],
  ['^', 0x14],
  ['{', 0x28],
  ['}', 0x29],
  ['\\', 0x2f],
  ['[', 0x3c],
  ['~', 0x3d],
  [']', 0x3e],
  ['|', 0x40],
  ['€', 0x65],
];

export const GSM7_ESCAPE = 0x1b;

const basicCode = new Map<string, number>();
for (let i = 0; i < BASIC.length; i++) if (i !== GSM7_ESCAPE) basicCode.set(BASIC[i]!, i);
const extensionCode = new Map(EXTENSION);
const extensionChar = new Map(EXTENSION.map(([c, code]) => [code, c]));

/** 1 for a basic-table character, 2 for an extension one (ESC + code), 0 when GSM-7 cannot carry it. */
export function gsm7Septets(char: string): 0 | 1 | 2 {
  if (basicCode.has(char)) return 1;
  if (extensionCode.has(char)) return 2;
  return 0;
}

export function isGsm7Text(text: string): boolean {
  for (const char of text) if (gsm7Septets(char) === 0) return false;
  return true;
}

/** The characters of `text` that GSM-7 cannot carry, each once, in order of appearance. */
export function nonGsm7Characters(text: string): string[] {
  const found = new Set<string>();
  for (const char of text) if (gsm7Septets(char) === 0) found.add(char);
  return [...found];
}

/** Unpacked septets (SMPP data_coding 0). Throws on a character outside the alphabet: choose the encoding first. */
export function encodeGsm7(text: string): Uint8Array {
  const out: number[] = [];
  for (const char of text) {
    const basic = basicCode.get(char);
    if (basic !== undefined) {
      out.push(basic);
      continue;
    }
    const ext = extensionCode.get(char);
    if (ext === undefined) throw new RangeError(`"${char}" is not in the GSM 03.38 alphabet`);
    out.push(GSM7_ESCAPE, ext);
  }
  return Uint8Array.from(out);
}

/**
 * Unpacked septets back to text. Bytes are read modulo 128 (some SMSCs set the top bit); an ESC
 * followed by a code the extension table lacks reads as that code's basic character, as TS 23.038
 * says a receiver should; a trailing ESC is dropped.
 */
export function decodeGsm7(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i++) {
    const septet = bytes[i]! & 0x7f;
    if (septet === GSM7_ESCAPE) {
      if (i + 1 >= bytes.length) break;
      const next = bytes[++i]! & 0x7f;
      text += extensionChar.get(next) ?? (next === GSM7_ESCAPE ? ' ' : BASIC[next]!);
      continue;
    }
    text += BASIC[septet]!;
  }
  return text;
}

/** UTF-16 big-endian, what SMPP calls UCS-2 (data_coding 8): characters past U+FFFF go as surrogate pairs. */
export function encodeUcs2(text: string): Uint8Array {
  const out = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    out[i * 2] = unit >> 8;
    out[i * 2 + 1] = unit & 0xff;
  }
  return out;
}

/** UCS-2/UTF-16 big-endian to text; an odd last byte is dropped. Lone surrogates are kept: sanitize after. */
export function decodeUcs2(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i + 1 < bytes.length; i += 2) text += String.fromCharCode((bytes[i]! << 8) | bytes[i + 1]!);
  return text;
}
