import { describe, expect, it } from 'vitest';
import { isValidDdd, VALID_DDDS } from './ddd.ts';
import { formatBrazilianPhone, normalizeBrazilianPhone, type PhoneInvalidReason } from './normalize.ts';

const e164 = (input: unknown) => {
  const r = normalizeBrazilianPhone(input);
  return r.ok ? r.e164 : r.reason;
};

describe('normalizeBrazilianPhone: mobiles as people write them', () => {
  it.each([
    '(11) 91234-5678',
    '(11) 9 1234-5678',
    '(11)91234-5678',
    '11 91234-5678',
    '11912345678',
    '11 9 1234 5678',
    '11.91234.5678',
    '11/91234-5678',
    '5511912345678',
    '55 11 91234-5678',
    '+55 11 9 1234-5678',
    '+55 (11) 91234-5678',
    '+5511912345678',
    '+55 (011) 91234-5678',
    '0055 11 91234-5678',
    '005511912345678',
    '011 91234-5678',
    '(011) 91234-5678',
    '011912345678',
    '0 21 11 91234-5678',
    '0 15 11 91234-5678',
    '01511912345678',
    '02111912345678',
    '0XX11 91234-5678',
    '(0xx11) 91234-5678',
    '  (11) 91234-5678  ',
    '(11)\u00a091234\u20115678',
    '\ufeff11912345678',
  ])('%s → +5511912345678 (mobile)', (input) => {
    const r = normalizeBrazilianPhone(input);
    expect(r).toMatchObject({ ok: true, e164: '+5511912345678', ddd: '11', number: '912345678', kind: 'mobile' });
  });

  it('accepts numbers from spreadsheet cells (XLSX numeric cells)', () => {
    expect(e164(11912345678)).toBe('+5511912345678');
    expect(e164(5511912345678)).toBe('+5511912345678');
    expect(e164(11912345678n)).toBe('+5511912345678');
    expect(e164(1191234567.8)).toBe('INVALID_NUMBER');
  });

  it('adds the ninth digit to an old 8-digit mobile', () => {
    const r = normalizeBrazilianPhone('(21) 8765-4321');
    expect(r).toEqual({
      ok: true,
      e164: '+5521987654321',
      ddd: '21',
      number: '987654321',
      kind: 'mobile',
      ninthDigitAdded: true,
    });
    expect(e164('55 85 7123-4567')).toBe('+5585971234567');
  });
});

describe('normalizeBrazilianPhone: landlines', () => {
  it.each([
    ['(11) 3123-4567', '+551131234567'],
    ['1131234567', '+551131234567'],
    ['551131234567', '+551131234567'],
    ['+55 11 3123-4567', '+551131234567'],
    ['011 3123-4567', '+551131234567'],
    ['01131234567', '+551131234567'],
    ['0 21 11 3123-4567', '+551131234567'],
    ['041 11 3123 4567', '+551131234567'],
    ['(61) 2123-4567', '+556121234567'],
    ['(51) 5123-4567', '+555151234567'],
    ['(92) 4123-4567', '+559241234567'],
  ])('%s → %s (landline)', (input, expected) => {
    const r = normalizeBrazilianPhone(input);
    expect(r).toMatchObject({ ok: true, e164: expected, kind: 'landline', ninthDigitAdded: false });
  });
});

describe('normalizeBrazilianPhone: invalid input gets a reason', () => {
  it.each<[unknown, PhoneInvalidReason]>([
    ['', 'EMPTY'],
    ['   ', 'EMPTY'],
    [null, 'EMPTY'],
    [undefined, 'EMPTY'],
    ['-', 'INVALID_CHARACTERS'],
    ['sem telefone', 'INVALID_CHARACTERS'],
    ['(11) 9123-ABCD', 'INVALID_CHARACTERS'],
    ['11 91234-5678 ramal 12', 'INVALID_CHARACTERS'],
    ['5,51191E+12', 'SCIENTIFIC_NOTATION'],
    ['5.51191E+12', 'SCIENTIFIC_NOTATION'],
    ['+1 415 555 0100', 'NOT_BRAZILIAN'],
    ['+351 912 345 678', 'NOT_BRAZILIAN'],
    ['0800 123 4567', 'NON_GEOGRAPHIC'],
    ['0300 123 4567', 'NON_GEOGRAPHIC'],
    ['4004-1234', 'NON_GEOGRAPHIC'],
    ['190', 'TOO_SHORT'],
    ['91234-5678', 'TOO_SHORT'],
    ['3123-4567', 'TOO_SHORT'],
    ['119123456789', 'TOO_LONG'],
    ['11 91234-5678 / 11 98765-4321', 'TOO_LONG'],
    ['(10) 91234-5678', 'INVALID_DDD'],
    ['(20) 91234-5678', 'INVALID_DDD'],
    ['(23) 3123-4567', 'INVALID_DDD'],
    ['(50) 91234-5678', 'INVALID_DDD'],
    ['5510912345678', 'INVALID_DDD'],
    ['(11) 81234-5678', 'INVALID_NUMBER'],
    ['(11) 1123-4567', 'INVALID_NUMBER'],
    ['(11) 0123-4567', 'INVALID_NUMBER'],
    ['(11) 99999-9999', 'INVALID_NUMBER'],
    ['(11) 3333-3333', 'INVALID_NUMBER'],
    [{}, 'INVALID_NUMBER'],
    [-11912345678, 'INVALID_NUMBER'],
    [Number.NaN, 'INVALID_NUMBER'],
  ])('%s → %s', (input, reason) => {
    expect(normalizeBrazilianPhone(input)).toEqual({ ok: false, reason });
  });
});

describe('DDDs', () => {
  it('has the 67 Anatel area codes', () => {
    expect(VALID_DDDS).toHaveLength(67);
    expect(new Set(VALID_DDDS).size).toBe(67);
    for (const ddd of [11, 19, 21, 22, 24, 27, 28, 31, 38, 41, 49, 51, 53, 55, 61, 69, 71, 79, 81, 89, 91, 99]) {
      expect(isValidDdd(ddd), String(ddd)).toBe(true);
    }
    for (const ddd of [0, 10, 20, 23, 25, 26, 29, 30, 36, 39, 40, 50, 52, 56, 57, 58, 59, 60, 70, 72, 76, 78, 80, 90]) {
      expect(isValidDdd(ddd), String(ddd)).toBe(false);
    }
  });

  it('accepts every valid DDD with a mobile and a landline', () => {
    for (const ddd of VALID_DDDS) {
      expect(e164(`(${ddd}) 98765-4321`)).toBe(`+55${ddd}987654321`);
      expect(e164(`${ddd} 3765-4321`)).toBe(`+55${ddd}37654321`);
    }
  });
});

describe('formatBrazilianPhone', () => {
  it('formats mobiles and landlines the Brazilian way', () => {
    expect(formatBrazilianPhone('+5511912345678')).toBe('(11) 91234-5678');
    expect(formatBrazilianPhone('+551131234567')).toBe('(11) 3123-4567');
    expect(formatBrazilianPhone('whatever')).toBe('whatever');
  });
});
