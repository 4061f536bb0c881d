import { describe, expect, it } from 'vitest';
import {
  centavosToReais,
  costCentavos,
  formatBRL,
  formatPriceBRL,
  maxQuantityAffordable,
  parseBRL,
  parseScaledDecimal,
  priceToTenThousandths,
  reaisToCentavos,
  roundCentavosToWholeReais,
  scaledToDecimalString,
  tenThousandthsToReais,
} from './money.ts';

describe('reais ⇄ centavos without floats', () => {
  it('parses numbers and plain decimal text', () => {
    expect(reaisToCentavos(270)).toBe(27000);
    expect(reaisToCentavos(270.5)).toBe(27050);
    expect(reaisToCentavos('270.55')).toBe(27055);
    expect(reaisToCentavos('0.01')).toBe(1);
    expect(reaisToCentavos('.5')).toBe(50);
    expect(reaisToCentavos('-10.25')).toBe(-1025);
    expect(reaisToCentavos(' 3000 ')).toBe(300000);
    expect(reaisToCentavos('1.500')).toBe(150); // trailing zeros beyond the scale are harmless
    // values whose float form is not exact still read as their decimal text
    expect(reaisToCentavos(1.1)).toBe(110);
    expect(reaisToCentavos(19.99)).toBe(1999);
    expect(reaisToCentavos(4.35)).toBe(435); // 4.35 * 100 = 434.99999999999994 in floats
  });

  it('refuses more than two decimals, non-numbers and unsafe values', () => {
    expect(reaisToCentavos(0.1 + 0.2)).toBeNull(); // 0.30000000000000004
    expect(reaisToCentavos('1.005')).toBeNull();
    expect(reaisToCentavos('abc')).toBeNull();
    expect(reaisToCentavos('1,5')).toBeNull(); // plain form uses a dot; pt-BR text goes through parseBRL
    expect(reaisToCentavos('')).toBeNull();
    expect(reaisToCentavos(Number.NaN)).toBeNull();
    expect(reaisToCentavos(Number.POSITIVE_INFINITY)).toBeNull();
    expect(reaisToCentavos(1e21)).toBeNull(); // "1e+21"
    expect(reaisToCentavos('99999999999999999999')).toBeNull();
  });

  it('prints centavos back exactly', () => {
    expect(centavosToReais(27050)).toBe(270.5);
    expect(centavosToReais(1)).toBe(0.01);
    expect(centavosToReais(435)).toBe(4.35);
    expect(centavosToReais(-1025)).toBe(-10.25);
    expect(centavosToReais(0)).toBe(0);
    expect(scaledToDecimalString(5, 2)).toBe('0.05');
    expect(scaledToDecimalString(-5, 2)).toBe('-0.05');
    expect(scaledToDecimalString(123456, 4)).toBe('12.3456');
    // round trip over a range of values
    for (let c = -1000; c <= 100000; c += 7) expect(reaisToCentavos(centavosToReais(c))).toBe(c);
  });
});

describe('BRL in pt-BR', () => {
  const intl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });

  it('formats exactly like Intl pt-BR currency', () => {
    for (const c of [0, 1, 10, 99, 100, 27000, 27050, 123456, 100000000, 123456789012, -1, -123456]) {
      expect(formatBRL(c)).toBe(intl.format(centavosToReais(c)));
    }
    expect(formatBRL(123456)).toBe('R$\u00a01.234,56');
    expect(formatBRL(123456, { symbol: false })).toBe('1.234,56');
  });

  it('parses what people type and what formatBRL prints', () => {
    expect(parseBRL('R$ 1.234,56')).toBe(123456);
    expect(parseBRL('R$\u00a01.234,56')).toBe(123456);
    expect(parseBRL('1234,5')).toBe(123450);
    expect(parseBRL('1.234')).toBe(123400);
    expect(parseBRL('1.234.567')).toBe(123456700);
    expect(parseBRL('270')).toBe(27000);
    expect(parseBRL('12.5')).toBe(1250);
    expect(parseBRL('-R$ 10,00')).toBe(-1000);
    expect(parseBRL('0,01')).toBe(1);
    for (const c of [0, 1, 99, 27050, 123456789]) expect(parseBRL(formatBRL(c))).toBe(c);
  });

  it('refuses malformed money', () => {
    for (const bad of ['', 'R$', 'abc', '1,234', '1,2,3', '12.34.5', '1.23,4,5', '1,', '10,5a', '1.2345']) {
      expect(parseBRL(bad), bad).toBeNull();
    }
  });

  it('rounds the balance card to whole reais, half up', () => {
    expect(roundCentavosToWholeReais(27049)).toBe(270);
    expect(roundCentavosToWholeReais(27050)).toBe(271);
    expect(roundCentavosToWholeReais(49)).toBe(0);
    expect(roundCentavosToWholeReais(-150)).toBe(-2);
  });
});

describe('prices in ten-thousandths', () => {
  it('parses up to four decimals', () => {
    expect(priceToTenThousandths(0.085)).toBe(850);
    expect(priceToTenThousandths('0.0001')).toBe(1);
    expect(priceToTenThousandths(1.2345)).toBe(12345);
    expect(priceToTenThousandths(0)).toBe(0);
    expect(priceToTenThousandths('0.00001')).toBeNull();
    expect(tenThousandthsToReais(850)).toBe(0.085);
    expect(tenThousandthsToReais(12345)).toBe(1.2345);
    expect(parseScaledDecimal('7', 0)).toBe(7);
    expect(parseScaledDecimal('7.5', 0)).toBeNull();
  });

  it('formats with two to four decimals', () => {
    expect(formatPriceBRL(850)).toBe('R$\u00a00,085');
    expect(formatPriceBRL(1000)).toBe('R$\u00a00,10');
    expect(formatPriceBRL(12345)).toBe('R$\u00a01,2345');
    expect(formatPriceBRL(10000)).toBe('R$\u00a01,00');
    expect(formatPriceBRL(1, { symbol: false })).toBe('0,0001');
  });
});

describe('cost and affordability (a fraction of a centavo rounds up)', () => {
  it('computes exact costs', () => {
    expect(costCentavos(100, 850)).toBe(850); // 100 × R$ 0,085 = R$ 8,50
    expect(costCentavos(1, 850)).toBe(9); // R$ 0,085 → 9 centavos
    expect(costCentavos(3, 3333)).toBe(100); // 0.9999 reais → R$ 1,00
    expect(costCentavos(1, 1)).toBe(1); // R$ 0,0001 → 1 centavo
    expect(costCentavos(0, 850)).toBe(0);
    expect(costCentavos(5, 0)).toBe(0);
    expect(costCentavos(1_000_000_000, 1_000_000)).toBe(10_000_000_000_000); // no float overflow
  });

  it('refuses non-integers and negatives', () => {
    expect(() => costCentavos(1.5, 850)).toThrow(RangeError);
    expect(() => costCentavos(-1, 850)).toThrow(RangeError);
    expect(() => costCentavos(1, 0.5)).toThrow(RangeError);
  });

  it('maxQuantityAffordable agrees with costCentavos at the boundary', () => {
    expect(maxQuantityAffordable(850, 850)).toBe(100);
    expect(maxQuantityAffordable(849, 850)).toBe(99);
    expect(maxQuantityAffordable(9, 850)).toBe(1); // 1 unit costs 9 centavos after rounding
    expect(maxQuantityAffordable(8, 850)).toBe(0);
    expect(maxQuantityAffordable(100, 3333)).toBe(3);
    expect(maxQuantityAffordable(1000, 0)).toBe(0);
    expect(maxQuantityAffordable(0, 850)).toBe(0);
    expect(maxQuantityAffordable(-5, 850)).toBe(0);
    for (const price of [1, 7, 99, 100, 101, 850, 3333, 9999, 10000, 12345]) {
      for (const balance of [0, 1, 8, 9, 99, 100, 101, 999, 27000, 27055]) {
        const q = maxQuantityAffordable(balance, price);
        expect(costCentavos(q, price)).toBeLessThanOrEqual(balance);
        expect(costCentavos(q + 1, price)).toBeGreaterThan(balance);
      }
    }
  });
});
