import { describe, expect, it } from 'vitest';
import {
  adminAdjustmentSchema,
  adminPaymentSchema,
  creditTransferRowSchema,
  creditTransferSchema,
  LEDGER_MESSAGES,
  TRANSFERABLE_CREDIT_TYPES,
} from './ledger.ts';

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? undefined : result.error?.issues[0]?.message;

describe('ledger schemas', () => {
  it('transfer: integer amount > 0 of a credit type other than BALANCE', () => {
    expect(creditTransferSchema.parse({ amount: 100, type: 'SMSSHORT' })).toEqual({ amount: 100, type: 'SMSSHORT' });
    expect(TRANSFERABLE_CREDIT_TYPES).not.toContain('BALANCE');
    for (const amount of [0, -1, 1.5, '10', undefined]) {
      expect(firstMessage(creditTransferSchema.safeParse({ amount, type: 'URA' }))).toBe(
        LEDGER_MESSAGES.invalidQuantity,
      );
    }
    expect(firstMessage(creditTransferSchema.safeParse({ amount: 1, type: 'BALANCE' }))).toBe(
      LEDGER_MESSAGES.invalidCreditType,
    );
  });

  it('a transfer row: price 0, WhatsApp minimum, then Quantidade inválida with the cost rounded up', () => {
    const refusal = (
      type: Parameters<typeof creditTransferRowSchema>[0],
      quantity: number,
      price: number,
      balanceCentavos: number,
    ) => firstMessage(creditTransferRowSchema(type, price, balanceCentavos).safeParse(quantity));
    expect(refusal('URA', 10, 0, 100_000)).toBe(LEDGER_MESSAGES.priceNotConfigured);
    expect(refusal('WHATSAPP', 1, 1000, 299_899)).toBe(LEDGER_MESSAGES.whatsappMinimum);
    expect(refusal('WHATSAPP', 1, 1000, 299_900)).toBeUndefined();
    expect(refusal('SMSSHORT', 100, 850, 850)).toBeUndefined();
    expect(refusal('SMSSHORT', 101, 850, 850)).toBe(LEDGER_MESSAGES.invalidQuantity);
    expect(refusal('SMSFLASH', 1, 850, 8)).toBe(LEDGER_MESSAGES.invalidQuantity);
    expect(refusal('SMSFLASH', 1, 850, 9)).toBeUndefined();
    expect(refusal('SMSSHORT', 0, 850, 10_000)).toBe(LEDGER_MESSAGES.invalidQuantity);
    expect(refusal('SMSSHORT', 1.5, 850, 10_000)).toBe(LEDGER_MESSAGES.invalidQuantity);
  });

  it('admin payment: the spec form messages', () => {
    expect(adminPaymentSchema.safeParse({ amount: 270.5, method: 'PIX', reason: 'x' }).success).toBe(true);
    expect(firstMessage(adminPaymentSchema.safeParse({ method: 'PIX', reason: 'x' }))).toBe('Valor pago é obrigatório');
    expect(firstMessage(adminPaymentSchema.safeParse({ amount: 0, method: 'PIX', reason: 'x' }))).toBe(
      'Valor pago não pode ser menor ou igual a 0',
    );
    expect(firstMessage(adminPaymentSchema.safeParse({ amount: 1.001, method: 'PIX', reason: 'x' }))).toBe(
      LEDGER_MESSAGES.paidAmountDecimals,
    );
    expect(firstMessage(adminPaymentSchema.safeParse({ amount: 1, method: 'CARD', reason: 'x' }))).toBe(
      LEDGER_MESSAGES.paymentMethod,
    );
  });

  it('admin adjustment: reais for BALANCE, whole units for credits, type required', () => {
    expect(adminAdjustmentSchema.safeParse({ type: 'BALANCE', amount: -10.5, reason: 'x' }).success).toBe(true);
    expect(adminAdjustmentSchema.safeParse({ type: 'URA', amount: -3, reason: 'x' }).success).toBe(true);
    expect(firstMessage(adminAdjustmentSchema.safeParse({ amount: 1, reason: 'x' }))).toBe(
      'Tipo de crédito é obrigatório',
    );
    expect(firstMessage(adminAdjustmentSchema.safeParse({ type: 'URA', amount: 1.5, reason: 'x' }))).toBe(
      LEDGER_MESSAGES.adjustmentUnitsInteger,
    );
    expect(firstMessage(adminAdjustmentSchema.safeParse({ type: 'BALANCE', amount: 1.555, reason: 'x' }))).toBe(
      LEDGER_MESSAGES.adjustmentBalanceDecimals,
    );
    expect(firstMessage(adminAdjustmentSchema.safeParse({ type: 'URA', amount: 0, reason: 'x' }))).toBe(
      LEDGER_MESSAGES.adjustmentZero,
    );
  });
});
