import { describe, expect, it } from 'vitest';
import { cnpjChars, cnpjCheckDigits, cnpjProblem, formatCnpj, isValidCnpj, onlyDigits } from './cnpj.ts';

describe('CNPJ', () => {
  // 00.000.000/0001-91 is Banco do Brasil's.
  it.each(['11.222.333/0001-81', '11222333000181', '00.000.000/0001-91'])(
    'accepts a real CNPJ, masked or not: %s',
    (cnpj) => expect(isValidCnpj(cnpj)).toBe(true),
  );
  it('rejects wrong check digits, wrong lengths and repeated digits', () => {
    for (const cnpj of ['11.222.333/0001-82', '1122233300018', '11111111111111'])
      expect(isValidCnpj(cnpj), cnpj).toBe(false);
    expect(cnpjProblem('11.222.333/0001-82')).toBe('CHECK_DIGITS');
    expect(cnpjProblem('1122233300018')).toBe('FORMAT');
  });
  it('accepts the alphanumeric CNPJ the Receita issues from July 2026', () => {
    // The Receita's own example: letters are worth their ASCII code minus 48.
    for (const cnpj of ['12ABC34501DE35', '12.ABC.345/01DE-35', '12.abc.345/01de-35'])
      expect(isValidCnpj(cnpj), cnpj).toBe(true);
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
