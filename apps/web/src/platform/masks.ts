import IMask from 'imask';

/**
 * The spec's masks (section 2, step 2), in its notation: `9` and `*` each stand for one
 * character, everything else is a literal.
 */
export const SPEC_MASKS = {
  cnpj: '99.999.999/9999-99',
  mobilePhone: '(**) *****-****',
} as const;

/** An imask pattern with its slot definitions, and what each typed character becomes first. */
export type MaskSpec = { mask: string; definitions?: Record<string, RegExp>; prepareChar: (text: string) => string };

/** Every slot a digit (imask's `0`). */
export function toImaskPattern(specMask: string): string {
  return specMask.replace(/[9*]/g, '0');
}

/**
 * Drops every non-digit before the mask sees it, so a letter never reaches the field (imask
 * would otherwise show the mask's leading literal, e.g. "(", for it).
 */
export function digitsOnly(text: string): string {
  return text.replace(/\D/g, '');
}

/** Upper-cased letters and digits (the alphanumeric CNPJ); everything else dropped. */
export function cnpjCharsOnly(text: string): string {
  return text.toUpperCase().replace(/[^0-9A-Z]/g, '');
}

/**
 * The CNPJ keeps the spec's shape; since July 2026 its first twelve characters may be letters
 * (`#`: 0-9 or A-Z, typed in any case), the two check digits stay digits.
 */
export const CNPJ_MASK: MaskSpec = {
  mask: SPEC_MASKS.cnpj.replace(/9/g, '#').replace(/##$/, '00'),
  definitions: { '#': /[0-9A-Z]/ },
  prepareChar: cnpjCharsOnly,
};
export const MOBILE_PHONE_MASK: MaskSpec = { mask: toImaskPattern(SPEC_MASKS.mobilePhone), prepareChar: digitsOnly };

/** What the masked field shows for a typed or pasted text (characters the mask refuses are dropped). */
export function applyMask(spec: MaskSpec, text: string): string {
  return IMask.pipe(text, { ...spec });
}

/** The characters a masked field holds, as sent to the server. */
export function unmask(spec: MaskSpec, text: string): string {
  return IMask.pipe(text, { ...spec }, IMask.PIPE_TYPE.MASKED, IMask.PIPE_TYPE.UNMASKED);
}
