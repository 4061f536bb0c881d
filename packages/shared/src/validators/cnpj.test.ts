import { describe, expect, it } from 'vitest';
import { formatCnpj, isValidCnpj, onlyDigits } from './cnpj.ts';

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
  });
  it('masks as 99.999.999/9999-99', () => {
    expect(formatCnpj('11222333000181')).toBe('11.222.333/0001-81');
    expect(onlyDigits('(11) 91234-5678')).toBe('11912345678');
  });
});
