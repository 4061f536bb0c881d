/**
 * How an SMS text goes out: which encoding, how many characters it counts, and how it is cut into
 * concatenated parts. The campaign wizard shows its live counter from this, and the SMPP adapter
 * submits exactly these parts, so what the user is charged for is what the carrier receives.
 */
import { gsm7Septets, isGsm7Text, nonGsm7Characters } from './gsm7.ts';

export type SmsEncoding = 'gsm7' | 'ucs2';

/** One part's capacity: alone, or with the 6-octet concatenation header (UDH) taking its share. */
export const SMS_LIMITS = {
  gsm7: { single: 160, multi: 153 },
  ucs2: { single: 70, multi: 67 },
} as const;

/** A message longer than this many parts is refused: the 8-bit reference UDH allows 255, carriers far fewer. */
export const SMS_MAX_PARTS = 255;

export type SmsAnalysis = {
  encoding: SmsEncoding;
  /**
   * What the text counts against the limits: septets for GSM-7 (an extension character such as
   * `€` or `[` counts 2), UTF-16 code units for UCS-2 (an emoji counts 2).
   */
  characters: number;
  /** The text of each part, in order; joined they give the text back. One part (maybe empty) at least. */
  parts: string[];
  /** The capacity of one part for this text: 160/70 when it fits one part, else 153/67. */
  perPart: number;
  /** How many more characters the last part takes before another part starts (or the single part overflows). */
  remainingInPart: number;
  /** The characters that forced UCS-2 (each once), empty for GSM-7: the wizard points at them. */
  nonGsmCharacters: string[];
};

/** The cost of one character in the chosen encoding (GSM-7 septets or UTF-16 units). */
function unitsOf(char: string, encoding: SmsEncoding): number {
  return encoding === 'gsm7' ? gsm7Septets(char) : char.length;
}

/**
 * GSM-7 when every character is in the GSM 03.38 alphabet (extension included), else UCS-2.
 * Parts are cut between characters only: never inside an ESC pair nor a surrogate pair, so a part
 * may hold one unit less than `perPart`.
 */
export function analyzeSms(text: string): SmsAnalysis {
  const encoding: SmsEncoding = isGsm7Text(text) ? 'gsm7' : 'ucs2';
  const limits = SMS_LIMITS[encoding];
  let characters = 0;
  for (const char of text) characters += unitsOf(char, encoding);
  const nonGsmCharacters = encoding === 'gsm7' ? [] : nonGsm7Characters(text);
  if (characters <= limits.single) {
    return {
      encoding,
      characters,
      parts: [text],
      perPart: limits.single,
      remainingInPart: limits.single - characters,
      nonGsmCharacters,
    };
  }
  const parts: string[] = [];
  let current = '';
  let used = 0;
  for (const char of text) {
    const units = unitsOf(char, encoding);
    if (used + units > limits.multi) {
      parts.push(current);
      current = '';
      used = 0;
    }
    current += char;
    used += units;
  }
  parts.push(current);
  return {
    encoding,
    characters,
    parts,
    perPart: limits.multi,
    remainingInPart: limits.multi - used,
    nonGsmCharacters,
  };
}
