/** Digits only: "(11) 91234-5678" → "11912345678". */
export const onlyDigits = (value: string): string => value.replace(/\D+/g, '');

/**
 * The characters of a CNPJ as typed, masked or not: "12.abc.345/01de-35" → "12ABC34501DE35".
 * Since July 2026 the Receita issues alphanumeric CNPJs: twelve characters 0-9 or A-Z, then two
 * numeric check digits. Letters are upper-cased; everything else is dropped.
 */
export const cnpjChars = (value: string): string => value.toUpperCase().replace(/[^0-9A-Z]+/g, '');

export const CNPJ_PATTERN = /^[0-9A-Z]{12}[0-9]{2}$/;
const CNPJ_WEIGHTS_1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_WEIGHTS_2 = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

/** Each character's value is its ASCII code minus 48 ("0" → 0, "A" → 17). */
function checkDigit(values: number[], weights: number[]): number {
  const sum = weights.reduce((acc, w, i) => acc + w * (values[i] ?? 0), 0);
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

/** The two check digits of a CNPJ's first twelve characters (0-9, A-Z). */
export function cnpjCheckDigits(first12: string): string {
  const values = [...first12.toUpperCase()].map((c) => c.charCodeAt(0) - 48);
  const first = checkDigit(values, CNPJ_WEIGHTS_1);
  return `${first}${checkDigit([...values, first], CNPJ_WEIGHTS_2)}`;
}

/** Why a text is not a CNPJ: not 14 characters of the right kinds, or wrong check digits. */
export function cnpjProblem(value: string): 'FORMAT' | 'CHECK_DIGITS' | null {
  const cnpj = cnpjChars(value);
  if (!CNPJ_PATTERN.test(cnpj) || /^(\d)\1{13}$/.test(cnpj)) return 'FORMAT';
  const values = [...cnpj].map((c) => c.charCodeAt(0) - 48);
  const ok = checkDigit(values, CNPJ_WEIGHTS_1) === values[12] && checkDigit(values, CNPJ_WEIGHTS_2) === values[13];
  return ok ? null : 'CHECK_DIGITS';
}

/** True for a CNPJ (numeric or alphanumeric, masked or not) whose two check digits are right. */
export function isValidCnpj(value: string): boolean {
  return cnpjProblem(value) === null;
}

/** "12ABC34501DE35" → "12.ABC.345/01DE-35" (the spec's mask 99.999.999/9999-99). */
export function formatCnpj(value: string): string {
  const c = cnpjChars(value).slice(0, 14);
  return c
    .replace(/^(.{2})(.)/, '$1.$2')
    .replace(/^(.{2})\.(.{3})(.)/, '$1.$2.$3')
    .replace(/^(.{2}\..{3}\..{3})(.)/, '$1/$2')
    .replace(/^(.{2}\..{3}\..{3}\/.{4})(.)/, '$1-$2');
}
