import { CREDIT_TYPES, LEDGER_ENTRY_KINDS, PAYMENT_METHODS, PAYMENT_PROVIDERS, PAYMENT_STATUSES } from '@ecoa/shared';
import { type SQL, sql } from 'drizzle-orm';
import { bigint, check, index, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { ownedBy, randomId, timestamps, timestamptz } from '../../platform/db/columns.ts';
import { users } from '../users/index.ts';

/** `column IN ('A', 'B', …)` for a CHECK constraint over one of our enumerations. */
function oneOf(column: SQL, values: readonly string[]): SQL {
  return sql`${column} in (${sql.raw(values.map((v) => `'${v}'`).join(', '))})`;
}

/**
 * One balance per (user, credit type). BALANCE is money in integer centavos; every other type
 * is integer units. `available` can be spent; `reserved` is held for running campaigns.
 * The CHECK makes a negative balance impossible, whatever the code above it does.
 * A missing row is a zero balance; rows are created by the first credit.
 */
export const creditBalances = pgTable(
  'credit_balances',
  {
    userId: ownedBy(users),
    type: text('type', { enum: CREDIT_TYPES }).notNull(),
    available: bigint('available', { mode: 'number' }).notNull().default(0),
    reserved: bigint('reserved', { mode: 'number' }).notNull().default(0),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.type] }),
    check('credit_balances_non_negative', sql`${t.available} >= 0 and ${t.reserved} >= 0`),
    check('credit_balances_type', oneOf(sql`${t.type}`, CREDIT_TYPES)),
  ],
);

/**
 * Append-only history: every change of a balance writes one entry in the same transaction.
 * `amount` is the signed change of `available` and `balance_after` its value afterwards;
 * `reserved_delta`/`reserved_after` do the same for `reserved` (reserve/capture/release).
 * So, per (user, type): sum(amount) = available and sum(reserved_delta) = reserved.
 * An idempotency key is unique per user: a retried operation finds its entry and changes nothing.
 * A trigger (migration 0002-ish `ledger_append_only`) refuses UPDATE and DELETE.
 */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: ownedBy(users),
    type: text('type', { enum: CREDIT_TYPES }).notNull(),
    kind: text('kind', { enum: LEDGER_ENTRY_KINDS }).notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    balanceAfter: bigint('balance_after', { mode: 'number' }).notNull(),
    reservedDelta: bigint('reserved_delta', { mode: 'number' }).notNull().default(0),
    reservedAfter: bigint('reserved_after', { mode: 'number' }).notNull().default(0),
    /** What caused it: `payment`/<payment id>, `transfer`/<transfer id>, `campaign`/<id>, `welcome_bonus`/<user id>… */
    referenceType: text('reference_type'),
    referenceId: text('reference_id'),
    /** Who did it, when not the user themself (an administrator for adjustments and manual payments). */
    actorUserId: uuid('actor_user_id').references(() => users.id),
    reason: text('reason'),
    idempotencyKey: text('idempotency_key'),
    /** Details of the operation (a transfer's unit price and cost, a payment's provider ids…). */
    metadata: jsonb('metadata').$type<Record<string, unknown>>(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('ledger_entries_user_idempotency_key').on(t.userId, t.idempotencyKey),
    index('ledger_entries_user_id_idx').on(t.userId, t.id),
    index('ledger_entries_reference_idx').on(t.userId, t.referenceType, t.referenceId),
    check('ledger_entries_kind', oneOf(sql`${t.kind}`, LEDGER_ENTRY_KINDS)),
    check('ledger_entries_type', oneOf(sql`${t.type}`, CREDIT_TYPES)),
    check('ledger_entries_after_non_negative', sql`${t.balanceAfter} >= 0 and ${t.reservedAfter} >= 0`),
  ],
);

/**
 * Money paid in: manual/PIX payments recorded by an administrator (credited at once) and card
 * payments through Stripe (PENDING until a verified webhook credits them, exactly once).
 */
export const payments = pgTable(
  'payments',
  {
    id: randomId(),
    userId: ownedBy(users),
    amountCentavos: bigint('amount_centavos', { mode: 'number' }).notNull(),
    method: text('method', { enum: PAYMENT_METHODS }).notNull(),
    provider: text('provider', { enum: PAYMENT_PROVIDERS }).notNull(),
    status: text('status', { enum: PAYMENT_STATUSES }).notNull().default('PENDING'),
    /** The provider's ids (Stripe: the Checkout Session and the PaymentIntent). */
    externalId: text('external_id'),
    externalPaymentId: text('external_payment_id'),
    reason: text('reason'),
    createdBy: uuid('created_by').references(() => users.id),
    /** Card checkouts: where the customer pays, and where they return to (this site only). */
    checkoutUrl: text('checkout_url'),
    successUrl: text('success_url'),
    cancelUrl: text('cancel_url'),
    /** Refunded by the provider so far (cumulative), and what could not be taken back (flagged). */
    refundedCentavos: bigint('refunded_centavos', { mode: 'number' }).notNull().default(0),
    refundShortfallCentavos: bigint('refund_shortfall_centavos', { mode: 'number' }).notNull().default(0),
    /** Anything else worth keeping (e.g. a refused event's reason). */
    metadata: jsonb('metadata').$type<Record<string, unknown>>(),
    ...timestamps(),
    completedAt: timestamptz('completed_at'),
  },
  (t) => [
    index('payments_user_created_idx').on(t.userId, t.createdAt),
    uniqueIndex('payments_provider_external_id_key').on(t.provider, t.externalId),
    check('payments_amount_positive', sql`${t.amountCentavos} > 0`),
    check('payments_refunds_non_negative', sql`${t.refundedCentavos} >= 0 and ${t.refundShortfallCentavos} >= 0`),
    index('payments_external_payment_id_idx').on(t.externalPaymentId),
    check('payments_method', oneOf(sql`${t.method}`, PAYMENT_METHODS)),
    check('payments_provider', oneOf(sql`${t.provider}`, PAYMENT_PROVIDERS)),
    check('payments_status', oneOf(sql`${t.status}`, PAYMENT_STATUSES)),
  ],
);

export type CreditBalanceRow = typeof creditBalances.$inferSelect;
export type LedgerEntryRow = typeof ledgerEntries.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect;
