import { isValidDdd } from './ddd.ts';

export type PhoneKind = 'mobile' | 'landline';

/** Why a value is not a usable Brazilian phone number. Stable codes: the web app translates them. */
export const PHONE_INVALID_REASONS = [
  'EMPTY',
  'INVALID_CHARACTERS',
  'SCIENTIFIC_NOTATION',
  'NOT_BRAZILIAN',
  'NON_GEOGRAPHIC',
  'TOO_SHORT',
  'TOO_LONG',
  'INVALID_DDD',
  'INVALID_NUMBER',
] as const;
export type PhoneInvalidReason = (typeof PHONE_INVALID_REASONS)[number];

/** Portuguese labels of the reasons, for files the server writes (e.g. the invalid-rows export). */
export const PHONE_INVALID_REASON_PT: Record<PhoneInvalidReason, string> = {
  EMPTY: 'Telefone vazio',
  INVALID_CHARACTERS: 'Contém letras ou símbolos',
  SCIENTIFIC_NOTATION: 'Número em notação científica (formate a coluna como texto no Excel)',
  NOT_BRAZILIAN: 'Número de outro país',
  NON_GEOGRAPHIC: 'Número não geográfico (0800, 0300, 4004…)',
  TOO_SHORT: 'Poucos dígitos',
  TOO_LONG: 'Dígitos demais',
  INVALID_DDD: 'DDD inexistente',
  INVALID_NUMBER: 'Número inválido',
};

export type PhoneOk = {
  ok: true;
  /** E.164: `+55` + DDD + subscriber number, e.g. `+5511912345678`. */
  e164: string;
  ddd: string;
  /** Subscriber number without the DDD (9 digits for mobiles, 8 for landlines). */
  number: string;
  kind: PhoneKind;
  /** True when an old 8-digit mobile got Anatel's ninth digit (9) added. */
  ninthDigitAdded: boolean;
};
export type PhoneInvalid = { ok: false; reason: PhoneInvalidReason };
export type PhoneResult = PhoneOk | PhoneInvalid;

const NON_DIGITS = /\D+/g;

const invalid = (reason: PhoneInvalidReason): PhoneInvalid => ({ ok: false, reason });

/**
 * Normalises a Brazilian phone number as people type it in spreadsheets to E.164.
 *
 * Accepts `(11) 91234-5678`, `11912345678`, `5511912345678`, `+55 11 9 1234-5678`,
 * `011 91234-5678` (trunk 0), `0 21 11 91234-5678` / `01511912345678` (0 + carrier code),
 * `0055 11 …` / `+55 (011) …`, dots, slashes, non-breaking spaces. Classifies mobiles
 * (9 + 8 digits) and landlines (8 digits starting 2–5); an old 8-digit mobile (starting 6–9)
 * gets the ninth digit Anatel added in 2016. Anything else is invalid with a reason.
 */
export function normalizeBrazilianPhone(input: unknown): PhoneResult {
  if (input === null || input === undefined) return invalid('EMPTY');
  let text: string;
  if (typeof input === 'number') {
    if (!Number.isFinite(input) || input < 0) return invalid('INVALID_NUMBER');
    if (!Number.isInteger(input)) return invalid('INVALID_NUMBER');
    text = input.toFixed(0);
  } else if (typeof input === 'bigint') {
    text = input.toString();
  } else if (typeof input === 'string') {
    text = input;
  } else {
    return invalid('INVALID_NUMBER');
  }

  // "0xx11 …": the old way to write "0 + carrier code of your choice".
  if (text.includes('x') || text.includes('X')) text = text.replace(/^(\s*\(?\s*0)\s*[xX]{2}/, '$1');

  // One pass: count digits, skip formatting, note a leading '+', reject anything else.
  // (No string is built per character: the digits are taken at once below, as one flat string.)
  let nDigits = 0;
  let plus = false;
  let other = false;
  let sawE = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      nDigits++;
    } else if (c === 43 /* + */) {
      if (nDigits > 0 || plus) other = true;
      plus = true;
    } else if (
      c === 32 || // space
      c === 40 || // (
      c === 41 || // )
      c === 45 || // -
      c === 46 || // .
      c === 47 || // /
      c === 9 ||
      c === 160 || // no-break space
      c === 8209 || // non-breaking hyphen
      c === 8211 || // en dash
      c === 8212 || // em dash
      c === 8239 || // narrow no-break space
      c === 65279 || // BOM / zero width no-break space
      c === 8203 // zero width space
    ) {
      // formatting
    } else if ((c === 69 || c === 101) /* E e */ && nDigits > 0) {
      sawE = true;
    } else {
      other = true;
    }
  }
  if (nDigits === 0) return invalid(text.trim().length === 0 ? 'EMPTY' : 'INVALID_CHARACTERS');
  if (sawE) return invalid('SCIENTIFIC_NOTATION');
  if (other) return invalid('INVALID_CHARACTERS');
  const digits = nDigits === text.length ? text : text.replace(NON_DIGITS, '');

  let national: string;
  if (plus || digits.startsWith('00')) {
    // International format: the country code must be Brazil's.
    const intl = plus ? digits : digits.slice(2);
    if (!intl.startsWith('55')) return invalid(intl.length < 10 ? 'TOO_SHORT' : 'NOT_BRAZILIAN');
    national = intl.slice(2);
    if (national.startsWith('0')) national = national.slice(1); // +55 (011) …
  } else if (digits.startsWith('0')) {
    const rest = digits.slice(1);
    if (rest.startsWith('300') || rest.startsWith('500') || rest.startsWith('800') || rest.startsWith('900')) {
      return invalid('NON_GEOGRAPHIC');
    }
    // After the trunk 0: DDD + number has 10 or 11 digits; with a carrier code (2 digits,
    // e.g. 015 Vivo, 021 Claro, 041 TIM) in front, 12 or 13.
    if (rest.length === 12 || rest.length === 13) {
      national = rest.slice(2);
    } else {
      national = rest;
    }
  } else if ((digits.length === 12 || digits.length === 13) && digits.startsWith('55')) {
    national = digits.slice(2);
  } else {
    national = digits;
  }

  if (
    national.length === 8 &&
    (national.startsWith('4004') || national.startsWith('4003') || national.startsWith('3003'))
  ) {
    return invalid('NON_GEOGRAPHIC');
  }
  if (national.length < 10) return invalid('TOO_SHORT');
  if (national.length > 11) return invalid('TOO_LONG');

  const ddd = (national.charCodeAt(0) - 48) * 10 + (national.charCodeAt(1) - 48);
  if (!isValidDdd(ddd)) return invalid('INVALID_DDD');
  let subscriber = national.slice(2);
  let kind: PhoneKind;
  let ninthDigitAdded = false;
  const first = subscriber.charCodeAt(0) - 48;
  if (subscriber.length === 9) {
    if (first !== 9) return invalid('INVALID_NUMBER');
    kind = 'mobile';
  } else if (first >= 2 && first <= 5) {
    kind = 'landline';
  } else if (first >= 6) {
    subscriber = `9${subscriber}`;
    kind = 'mobile';
    ninthDigitAdded = true;
  } else {
    return invalid('INVALID_NUMBER');
  }
  if (isFiller(subscriber)) return invalid('INVALID_NUMBER');
  const dddText = national.slice(0, 2);
  return { ok: true, e164: `+55${dddText}${subscriber}`, ddd: dddText, number: subscriber, kind, ninthDigitAdded };
}

/** `99999-9999`, `3333-3333`: placeholders people type when they have no number. */
function isFiller(subscriber: string): boolean {
  const last8 = subscriber.slice(-8);
  const c = last8[0];
  for (let i = 1; i < 8; i++) if (last8[i] !== c) return false;
  return true;
}

/** `+5511912345678` → `(11) 91234-5678`; `+551131234567` → `(11) 3123-4567`. */
export function formatBrazilianPhone(e164: string): string {
  const m = /^\+55(\d{2})(\d{4,5})(\d{4})$/.exec(e164);
  if (!m) return e164;
  return `(${m[1]}) ${m[2]}-${m[3]}`;
}
