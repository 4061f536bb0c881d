import IMask from 'imask';

/**
 * The spec's masks (section 2, step 2), in its notation: `9` and `*` each stand for one
 * character, everything else is a literal. Both fields accept digits only, so every slot
 * becomes imask's digit slot `0`.
 */
export const SPEC_MASKS = {
  cnpj: '99.999.999/9999-99',
  mobilePhone: '(**) *****-****',
} as const;

export function toImaskPattern(specMask: string): string {
  return specMask.replace(/[9*]/g, '0');
}

export const CNPJ_MASK = toImaskPattern(SPEC_MASKS.cnpj);
export const MOBILE_PHONE_MASK = toImaskPattern(SPEC_MASKS.mobilePhone);

/**
 * Drops every non-digit before the mask sees it, so a letter never reaches the field (imask
 * would otherwise show the mask's leading literal, e.g. "(", for it).
 */
export function digitsOnly(text: string): string {
  return text.replace(/\D/g, '');
}

/** What the masked field shows for a typed or pasted text (non-digits are dropped). */
export function applyMask(mask: string, text: string): string {
  return IMask.pipe(text, { mask, prepareChar: digitsOnly });
}

/** The digits a masked field holds, as sent to the server. */
export function unmask(mask: string, text: string): string {
  return IMask.pipe(text, { mask, prepareChar: digitsOnly }, IMask.PIPE_TYPE.MASKED, IMask.PIPE_TYPE.UNMASKED);
}
