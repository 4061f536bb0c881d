import { z } from 'zod';
import { MIN_PURCHASE_REAIS, WHATSAPP_MIN_REAIS } from '../constants.ts';
import { CREDIT_TYPES, PAYMENT_METHODS, PAYMENT_PROVIDERS, PAYMENT_STATUSES } from '../enums.ts';
import { VALIDATION_MESSAGES } from '../errors/texts.ts';
import { maxQuantityAffordable, reaisToCentavos } from '../money.ts';

/** What moved a balance (one append-only ledger entry each). */
export const LEDGER_ENTRY_KINDS = [
  'PURCHASE',
  'TRANSFER_OUT',
  'TRANSFER_IN',
  'WELCOME_BONUS',
  'ADMIN_ADJUSTMENT',
  'REFUND',
  'RESERVE',
  'CAPTURE',
  'RELEASE',
  'ENRICHMENT_CHARGE',
] as const;
export type LedgerEntryKind = (typeof LEDGER_ENTRY_KINDS)[number];

/** Credit types a money balance can be turned into (every type but BALANCE). */
export const TRANSFERABLE_CREDIT_TYPES = CREDIT_TYPES.filter((t) => t !== 'BALANCE') as Exclude<
  (typeof CREDIT_TYPES)[number],
  'BALANCE'
>[];
export type TransferableCreditType = (typeof TRANSFERABLE_CREDIT_TYPES)[number];

/** Admins record only these by hand; CARD payments come from the card provider. */
export const MANUAL_PAYMENT_METHODS = ['MANUAL', 'PIX'] as const;

/** A sane ceiling for one payment or adjustment: R$ 1.000.000,00. */
export const MAX_PAYMENT_REAIS = 1_000_000;
/** A sane ceiling for one transfer or adjustment of credits. */
export const MAX_CREDIT_UNITS = 100_000_000;

/** The server's messages (pt) for money rules; spec section 5 where it has them. */
export const LEDGER_MESSAGES = {
  invalidQuantity: 'Quantidade inválida',
  whatsappMinimum: 'O valor mínimo para créditos WhatsApp é de 3000.',
  priceNotConfigured:
    'O preço deste tipo de crédito ainda não foi configurado para a sua conta. Fale com o suporte para liberar a compra.',
  invalidCreditType: 'Tipo de crédito inválido',
  creditTypeRequired: 'Tipo de crédito é obrigatório',
  paidAmountRequired: 'Valor pago é obrigatório',
  paidAmountPositive: 'Valor pago não pode ser menor ou igual a 0',
  paidAmountDecimals: 'Valor pago deve ter no máximo duas casas decimais',
  paidAmountTooLarge: 'Valor pago acima do limite de R$ 1.000.000,00',
  paymentMethod: 'Forma de pagamento inválida',
  reasonRequired: 'Motivo é obrigatório',
  adjustmentZero: VALIDATION_MESSAGES.adjustmentZero,
  adjustmentBalanceDecimals: 'Ajuste de saldo em reais com no máximo duas casas decimais',
  adjustmentUnitsInteger: 'Ajuste de créditos deve ser um número inteiro',
  adjustmentTooLarge: 'Valor do ajuste acima do limite permitido',
  adjustmentBelowZero: 'O ajuste deixaria o saldo abaixo de zero.',
  insufficientBalance: 'Saldo insuficiente.',
  idempotencyKeyReused: 'Esta chave de idempotência já foi usada em outra operação.',
  userNotFound: 'Usuário não encontrado.',
  minimumPurchase: 'O valor mínimo para compra é de R$ 270,00',
  maximumPurchase: 'O valor máximo por compra é de R$ 100.000,00',
  purchaseWholeReais: 'O valor da compra deve ser em reais inteiros',
  returnUrl: 'Endereço de retorno inválido',
} as const;

/** A sane ceiling for one card checkout: R$ 100.000,00. */
export const MAX_CHECKOUT_REAIS = 100_000;

/**
 * `POST /api/checkout` (spec section 3, "Checkout request"): amount in whole reais, at least
 * R$ 270,00; the return URLs must point to this site (the server checks the origin).
 */
export const checkoutRequestSchema = z.object({
  amount: z
    .number({ error: LEDGER_MESSAGES.minimumPurchase })
    .int(LEDGER_MESSAGES.purchaseWholeReais)
    .min(MIN_PURCHASE_REAIS, LEDGER_MESSAGES.minimumPurchase)
    .max(MAX_CHECKOUT_REAIS, LEDGER_MESSAGES.maximumPurchase),
  successUrl: z.url({ protocol: /^https?$/, error: LEDGER_MESSAGES.returnUrl }).max(2000),
  cancelUrl: z.url({ protocol: /^https?$/, error: LEDGER_MESSAGES.returnUrl }).max(2000),
});
export type CheckoutRequest = z.infer<typeof checkoutRequestSchema>;
export const checkoutResponseSchema = z.object({ checkout_url: z.string() });
export type CheckoutResponse = z.infer<typeof checkoutResponseSchema>;

/**
 * How this server takes card payments (`GET /api/v1/checkout/options`): `stripe`; `test`, the
 * built-in test checkout (a local trial or CHECKOUT_TEST_MODE, no real charge); `unavailable`
 * (not configured: `POST /api/checkout` answers 503 CARD_PAYMENTS_NOT_CONFIGURED).
 */
export const CARD_PAYMENT_MODES = ['stripe', 'test', 'unavailable'] as const;
export type CardPaymentMode = (typeof CARD_PAYMENT_MODES)[number];
export const checkoutOptionsSchema = z.object({ card: z.enum(CARD_PAYMENT_MODES) });
export type CheckoutOptions = z.infer<typeof checkoutOptionsSchema>;

/** `POST /api/v1/credits/transfer` (spec section 3, "Credit transfer request"). */
export const creditTransferSchema = z.object({
  amount: z
    .number({ error: LEDGER_MESSAGES.invalidQuantity })
    .int(LEDGER_MESSAGES.invalidQuantity)
    .positive(LEDGER_MESSAGES.invalidQuantity)
    .max(MAX_CREDIT_UNITS, LEDGER_MESSAGES.invalidQuantity),
  type: z.enum(TRANSFERABLE_CREDIT_TYPES, { error: LEDGER_MESSAGES.invalidCreditType }),
});
export type CreditTransferInput = z.infer<typeof creditTransferSchema>;

/**
 * One row of the web's transfer form: the request's `amount`, then the ledger's own refusals in
 * its order, for the user's unit price (ten-thousandths of a real, 0 = not configured) and money
 * balance (centavos): the price configured (PRICE_NOT_CONFIGURED); WhatsApp: the quantity plus the
 * balance in reais at least R$ 3.000 (WHATSAPP_MINIMUM); the cost, rounded up to the centavo,
 * within the balance (INVALID_QUANTITY). Each refusal in the words of `LEDGER_MESSAGES`.
 */
export function creditTransferRowSchema(type: TransferableCreditType, price: number, balanceCentavos: number) {
  return creditTransferSchema.shape.amount.superRefine((quantity, ctx) => {
    const refuse = (message: string) => ctx.addIssue({ code: 'custom', message });
    if (price === 0) refuse(LEDGER_MESSAGES.priceNotConfigured);
    else if (type === 'WHATSAPP' && quantity * 100 + balanceCentavos < WHATSAPP_MIN_REAIS * 100) {
      refuse(LEDGER_MESSAGES.whatsappMinimum);
    } else if (quantity > maxQuantityAffordable(balanceCentavos, price)) refuse(LEDGER_MESSAGES.invalidQuantity);
  });
}

const reason = z
  .string({ error: LEDGER_MESSAGES.reasonRequired })
  .trim()
  .min(1, LEDGER_MESSAGES.reasonRequired)
  .max(500);

/** `POST /api/v1/admin/users/:id/payments`: amount in reais (up to 2 decimals), credited at once. */
export const adminPaymentSchema = z.object({
  amount: z
    .number({ error: LEDGER_MESSAGES.paidAmountRequired })
    .refine((v) => v > 0, LEDGER_MESSAGES.paidAmountPositive)
    .refine((v) => reaisToCentavos(v) !== null, LEDGER_MESSAGES.paidAmountDecimals)
    .refine((v) => v <= MAX_PAYMENT_REAIS, LEDGER_MESSAGES.paidAmountTooLarge),
  method: z.enum(MANUAL_PAYMENT_METHODS, { error: LEDGER_MESSAGES.paymentMethod }),
  reason,
});
export type AdminPaymentInput = z.infer<typeof adminPaymentSchema>;

/**
 * `POST /api/v1/admin/users/:id/adjustments`: a signed amount, in reais (up to 2 decimals) for
 * BALANCE and in whole units for every credit type. Never takes a balance below zero.
 */
export const adminAdjustmentSchema = z
  .object({
    type: z.enum(CREDIT_TYPES, { error: LEDGER_MESSAGES.creditTypeRequired }),
    amount: z
      .number({ error: LEDGER_MESSAGES.paidAmountRequired })
      .refine((v) => v !== 0, LEDGER_MESSAGES.adjustmentZero),
    reason,
  })
  .superRefine((value, ctx) => {
    if (value.type === 'BALANCE') {
      if (reaisToCentavos(value.amount) === null) {
        ctx.addIssue({ code: 'custom', path: ['amount'], message: LEDGER_MESSAGES.adjustmentBalanceDecimals });
      } else if (Math.abs(value.amount) > MAX_PAYMENT_REAIS) {
        ctx.addIssue({ code: 'custom', path: ['amount'], message: LEDGER_MESSAGES.adjustmentTooLarge });
      }
    } else if (!Number.isSafeInteger(value.amount)) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: LEDGER_MESSAGES.adjustmentUnitsInteger });
    } else if (Math.abs(value.amount) > MAX_CREDIT_UNITS) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: LEDGER_MESSAGES.adjustmentTooLarge });
    }
  });
export type AdminAdjustmentInput = z.infer<typeof adminAdjustmentSchema>;

/** One balance as the API shows it. BALANCE is in reais; every credit type in whole units. */
export const creditBalanceSchema = z.object({ available: z.number(), reserved: z.number() });

/** `GET /api/v1/dashboard/balance`. */
export const dashboardBalanceSchema = z.object({
  money: z.number(),
  credits: z.object(
    Object.fromEntries(CREDIT_TYPES.map((t) => [t, creditBalanceSchema])) as Record<
      (typeof CREDIT_TYPES)[number],
      typeof creditBalanceSchema
    >,
  ),
});
export type DashboardBalance = z.infer<typeof dashboardBalanceSchema>;

/** One ledger entry in the API. For BALANCE, amounts are reais; for credit types, units. */
export const ledgerEntrySchema = z.object({
  id: z.number(),
  type: z.enum(CREDIT_TYPES),
  kind: z.enum(LEDGER_ENTRY_KINDS),
  amount: z.number(),
  balanceAfter: z.number(),
  reservedDelta: z.number(),
  reservedAfter: z.number(),
  referenceType: z.string().nullable(),
  referenceId: z.string().nullable(),
  actorUserId: z.string().nullable(),
  reason: z.string().nullable(),
  createdAt: z.string(),
});
export type LedgerEntryDto = z.infer<typeof ledgerEntrySchema>;

export const paymentSchema = z.object({
  id: z.string(),
  amount: z.number(),
  method: z.enum(PAYMENT_METHODS),
  provider: z.enum(PAYMENT_PROVIDERS),
  status: z.enum(PAYMENT_STATUSES),
  reason: z.string().nullable(),
  createdBy: z.string().nullable(),
  /** Refunded so far, in reais. */
  refunded: z.number(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
});
export type PaymentDto = z.infer<typeof paymentSchema>;

/** `GET /api/v1/payments/:id`: where one of the user's own payments stands (the web's card return polls it). */
export const paymentStatusSchema = z.object({
  id: z.string(),
  status: z.enum(PAYMENT_STATUSES),
  /** Reais. */
  amount: z.number(),
});
export type PaymentStatusDto = z.infer<typeof paymentStatusSchema>;

/** `POST /api/v1/admin/users/:id/payments` answer: the payment, its entry, the money balance after (reais). */
export const adminPaymentResultSchema = z.object({
  payment: paymentSchema,
  entry: ledgerEntrySchema.nullable(),
  money: z.number(),
});
export type AdminPaymentResult = z.infer<typeof adminPaymentResultSchema>;

/** `POST /api/v1/admin/users/:id/adjustments` answer: the entry and the adjusted balance after. */
export const adminAdjustmentResultSchema = z.object({ entry: ledgerEntrySchema, balance: creditBalanceSchema });
export type AdminAdjustmentResult = z.infer<typeof adminAdjustmentResultSchema>;

/** `POST /api/v1/credits/transfer` answer. */
export const creditTransferResultSchema = z.object({
  transferId: z.string(),
  type: z.enum(TRANSFERABLE_CREDIT_TYPES),
  amount: z.number(),
  /** Unit price in reais (up to 4 decimals). */
  unitPrice: z.number(),
  /** What it cost, in reais (rounded up to the centavo). */
  cost: z.number(),
  /** Money balance after, in reais. */
  money: z.number(),
  credits: creditBalanceSchema,
});
export type CreditTransferResult = z.infer<typeof creditTransferResultSchema>;
