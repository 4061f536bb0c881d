/**
 * The ledger's public surface: the module as the composition root builds it, its service (every
 * movement of money and credits goes through it) and the rows other modules read: a user's balance
 * (joined by `/api/me`) and a payment.
 */
export { createLedgerModule, type LedgerModule } from './ledger.module.ts';
export { creditBalances, type PaymentRow } from './ledger.schema.ts';
export { createLedgerService, type LedgerService } from './ledger.service.ts';
