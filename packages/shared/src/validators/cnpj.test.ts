import { describe, expect, it } from 'vitest';
import { cnpjChars, cnpjCheckDigits, cnpjProblem, formatCnpj, isValidCnpj, onlyDigits } from './cnpj.ts';

describe('CNPJ', () => {
  it('accepts real CNPJs, masked or not', () => {
    expect(isValidCnpj('11.222.333/0001-81')).toBe(true);
    expect(isValidCnpj('11222333000181')).toBe(true);
    expect(isValidCnpj('00.000.000/0001-91')).toBe(true); // Banco do Brasil
  });
  it('rejects wrong check digits, wrong lengths and repeated digits', () => {
    expect(isValidCnpj('11.222.333/0001-82')).toBe(false);
    expect(isValidCnpj('1122233300018')).toBe(false);
    expect(isValidCnpj('11111111111111')).toBe(false);
    expect(cnpjProblem('11.222.333/0001-82')).toBe('CHECK_DIGITS');
    expect(cnpjProblem('1122233300018')).toBe('FORMAT');
  });
  it('accepts the alphanumeric CNPJ the Receita issues from July 2026', () => {
    // The Receita's own example: letters are worth their ASCII code minus 48.
    expect(isValidCnpj('12ABC34501DE35')).toBe(true);
    expect(isValidCnpj('12.ABC.345/01DE-35')).toBe(true);
    expect(isValidCnpj('12.abc.345/01de-35')).toBe(true);
    expect(cnpjProblem('12ABC34501DE36')).toBe('CHECK_DIGITS');
    // Letters only in the first twelve characters: the check digits are numeric.
    expect(cnpjProblem('12ABC34501DE3A')).toBe('FORMAT');
    expect(cnpjChars(' 12.abc.345/01de-35 ')).toBe('12ABC34501DE35');
    expect(cnpjCheckDigits('12ABC34501DE')).toBe('35');
    expect(cnpjCheckDigits('112223330001')).toBe('81');
  });
  it('masks as 99.999.999/9999-99, letters upper-cased', () => {
    expect(formatCnpj('11222333000181')).toBe('11.222.333/0001-81');
    expect(formatCnpj('12abc34501de35')).toBe('12.ABC.345/01DE-35');
    expect(formatCnpj('112223')).toBe('11.222.3');
    expect(onlyDigits('(11) 91234-5678')).toBe('11912345678');
  });
});
