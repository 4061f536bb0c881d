/**
 * The ledger's public surface: its service (every movement of money and credits goes through it)
 * and the rows other modules read: a user's balance (joined by `/api/me`) and a payment.
 */
export { creditBalances, type PaymentRow } from './ledger.schema.ts';
export { createLedgerService, type LedgerService } from './ledger.service.ts';
