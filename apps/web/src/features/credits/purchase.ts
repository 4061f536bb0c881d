import {
  CREDIT_TYPES,
  type CreditType,
  formatBRL,
  MIN_PURCHASE_REAIS,
  type PriceTable,
  PURCHASE_QUANTITY_STEP,
  priceToTenThousandths,
  type TransferableCreditType,
} from '@ecoa/shared';

/** A row of the buy-credits modal (spec section 3, "Purchase row"). */
export interface PurchaseRow {
  tipo: string;
  quantidade: number;
  /** `valorNumerico` formatted in BRL. */
  valor: string;
  valorNumerico: number;
  campaignType: 'MONEY';
  precoPorUnidade: number;
}

/** The account-balance row: one real per unit (`precoPorUnidade` 1). */
export function balanceRow(tipo: string, quantidade: number): PurchaseRow {
  const valorNumerico = quantidade * 1;
  return {
    tipo,
    quantidade,
    valor: formatBRL(valorNumerico * 100),
    valorNumerico,
    campaignType: 'MONEY',
    precoPorUnidade: 1,
  };
}

/** The total is the sum over rows of quantity times unit price (spec section 4), in reais. */
export const purchaseTotal = (rows: PurchaseRow[]): number =>
  rows.reduce((sum, row) => sum + row.quantidade * row.precoPorUnidade, 0);

/** Plus and minus change the quantity by 100 and never go below 0. */
export const stepQuantity = (quantity: number, direction: 1 | -1): number =>
  Math.max(0, quantity + direction * PURCHASE_QUANTITY_STEP);

/** Typing keeps digits only ("1.2a3" → 123); empty → 0. Capped to keep the number safe. */
export function digitsOnly(text: string): number {
  const digits = text
    .replace(/\D/g, '')
    .replace(/^0+(?=\d)/, '')
    .slice(0, 9);
  return digits ? Number(digits) : 0;
}

/** Both payment buttons are disabled while the total is under R$ 270. */
export const canPay = (total: number): boolean => total >= MIN_PURCHASE_REAIS;
/** The orange notice shows when the total is above 0 but under 270. */
export const showsMinimumNotice = (total: number): boolean => total > 0 && total < MIN_PURCHASE_REAIS;

/** Which priceTable field prices each transferable credit type. */
export const PRICE_FIELD: Record<TransferableCreditType, keyof PriceTable> = {
  SMSSHORT: 'smsShort',
  SMSFLASH: 'smsFlash',
  WHATSAPP: 'whatsapp',
  URA: 'ura',
  URAINTEGRATION: 'uraIntegration',
  RCS: 'rcs',
  ENRICHED: 'enriched',
};

export const TRANSFER_TYPES = CREDIT_TYPES.filter((t): t is TransferableCreditType => t !== 'BALANCE');

/** The user's unit price of a type, in ten-thousandths of a real (0 = not configured). */
export function unitPrice(priceTable: PriceTable | undefined, type: TransferableCreditType): number {
  return priceToTenThousandths(priceTable?.[PRICE_FIELD[type]] ?? 0) ?? 0;
}

export const isCreditType = (value: string): value is CreditType => (CREDIT_TYPES as readonly string[]).includes(value);
