import { describe, expect, it } from 'vitest';
import { balanceRow, canPay, digitsOnly, purchaseTotal, showsMinimumNotice, stepQuantity, unitPrice } from './purchase';

describe('buy-credits modal maths', () => {
  it('builds the account-balance row in the spec shape', () => {
    expect(balanceRow('Saldo da conta', 300)).toEqual({
      tipo: 'Saldo da conta',
      quantidade: 300,
      valor: 'R$\u00a0300,00',
      valorNumerico: 300,
      campaignType: 'MONEY',
      precoPorUnidade: 1,
    });
    expect(purchaseTotal([balanceRow('x', 300), balanceRow('y', 70)])).toBe(370);
  });

  it('steps by 100, never below 0; typing keeps digits only', () => {
    expect(stepQuantity(0, 1)).toBe(100);
    expect(stepQuantity(250, -1)).toBe(150);
    expect(stepQuantity(50, -1)).toBe(0);
    expect(stepQuantity(0, -1)).toBe(0);
    expect(digitsOnly('1.2a3')).toBe(123);
    expect(digitsOnly('')).toBe(0);
    expect(digitsOnly('007')).toBe(7);
    expect(digitsOnly('-5')).toBe(5);
  });

  it('disables paying under R$ 270 and shows the notice only between 0 and 270', () => {
    expect(canPay(269)).toBe(false);
    expect(canPay(270)).toBe(true);
    expect(showsMinimumNotice(0)).toBe(false);
    expect(showsMinimumNotice(100)).toBe(true);
    expect(showsMinimumNotice(270)).toBe(false);
  });
});

describe('transfer rules (the server’s, in its order)', () => {
  const prices = { smsShort: 0.085, smsFlash: 0.085, whatsapp: 0.1, ura: 0, rcs: 0, uraIntegration: 0, enriched: 0 };

  it('reads unit prices in ten-thousandths', () => {
    expect(unitPrice(prices, 'SMSSHORT')).toBe(850);
    expect(unitPrice(prices, 'URA')).toBe(0);
    expect(unitPrice(undefined, 'URA')).toBe(0);
  });
});
