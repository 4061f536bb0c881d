import type { CreditType, LedgerEntryKind, PaymentMethod, PaymentProvider, PaymentStatus } from '@ecoa/shared';
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../platform/db/client.ts';
import { users } from '../users/index.ts';
import { type BalanceAmounts, normalise } from './ledger.rows.ts';
import { creditBalances, type LedgerEntryRow, ledgerEntries, type PaymentRow, payments } from './ledger.schema.ts';
import { transferQueries } from './ledger.transfers.repository.ts';

export type { BalanceAmounts };

export type NewLedgerEntry = {
  userId: string;
  type: CreditType;
  kind: LedgerEntryKind;
  amount: number;
  balanceAfter: number;
  reservedDelta: number;
  reservedAfter: number;
  referenceType: string | null;
  referenceId: string | null;
  actorUserId: string | null;
  reason: string | null;
  idempotencyKey: string | null;
  metadata: Record<string, unknown> | null;
  createdAt: Date;
};

export type NewPayment = {
  userId: string;
  amountCentavos: number;
  method: PaymentMethod;
  provider: PaymentProvider;
  status: PaymentStatus;
  reason: string | null;
  createdBy: string | null;
  externalId?: string | null;
  successUrl?: string | null;
  cancelUrl?: string | null;
  createdAt: Date;
  completedAt: Date | null;
};

/** The user's unit prices (ten-thousandths of a real) per transferable credit type. */
export type UnitPrices = Record<Exclude<CreditType, 'BALANCE'>, number>;

type Rows<T> = { rows: T[] };

/**
 * SQL of the ledger. Every function runs on the handle it was built with: the pool/PGlite
 * handle, or a transaction (`transaction(fn)` hands `fn` a repository bound to it; called on a
 * repository that is already bound to a transaction, it opens a savepoint).
 */
export function createLedgerRepository(db: DbOrTx): LedgerRepository {
  return {
    ...ledgerQueries(db),
    ...transferQueries(db),
    handle: db,
    withTx: (tx) => createLedgerRepository(tx),
    transaction: (fn) => (db as Database).transaction((tx) => fn(createLedgerRepository(tx))),
  };
}

export type LedgerRepository = ReturnType<typeof ledgerQueries> &
  ReturnType<typeof transferQueries> & {
    /** The handle it runs on (a transaction inside `transaction(fn)`), for hooks that write beside it. */
    handle: DbOrTx;
    /** The same repository on another handle (an outer transaction the caller already opened). */
    withTx(tx: DbOrTx): LedgerRepository;
    /** Runs `fn` in a transaction (a savepoint when this repository is already inside one). */
    transaction<T>(fn: (tx: LedgerRepository) => Promise<T>): Promise<T>;
  };

function ledgerQueries(db: DbOrTx) {
  /** A provider's payment by one of its external ids (a checkout session's, or the payment's own). */
  async function findPaymentBy(
    provider: PaymentProvider,
    column: typeof payments.externalId | typeof payments.externalPaymentId,
    value: string,
  ): Promise<PaymentRow | null> {
    const rows = await db
      .select()
      .from(payments)
      .where(and(eq(payments.provider, provider), eq(column, value)))
      .limit(1);
    return rows[0] ?? null;
  }
  const execute = async <T>(query: ReturnType<typeof sql>): Promise<T[]> => {
    const result = (await db.execute(query)) as unknown as Rows<T>;
    return result.rows;
  };

  const repo = {
    async userExists(userId: string): Promise<boolean> {
      // Stryker disable next-line ObjectLiteral: equivalent, only whether a row comes back counts, whatever its columns
      const rows = await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).limit(1);
      return rows.length > 0;
    },

    /**
     * True when the user exists, and then holds it until the transaction ends: FOR KEY SHARE
     * keeps the row from being deleted, yet lets an administrator deactivate or edit it meanwhile.
     */
    async lockUserKey(userId: string): Promise<boolean> {
      const rows = await execute<{ id: string }>(sql`select id from ${users} where id = ${userId} for key share`);
      return rows.length > 0;
    },

    async getUnitPrices(userId: string): Promise<UnitPrices | null> {
      const rows = await db
        .select({
          SMSSHORT: users.priceSmsShort,
          SMSFLASH: users.priceSmsFlash,
          WHATSAPP: users.priceWhatsapp,
          URA: users.priceUra,
          URAINTEGRATION: users.priceUraIntegration,
          RCS: users.priceRcs,
          ENRICHED: users.priceEnriched,
        })
        .from(users)
        .where(eq(users.id, userId))
        .limit(1);
      return rows[0] ?? null;
    },

    /** Locks the (user, type) balance row until the transaction ends; null when it does not exist yet (zero). */
    async lockBalance(userId: string, type: CreditType): Promise<BalanceAmounts | null> {
      const rows = await execute<BalanceAmounts>(sql`
        select available, reserved from ${creditBalances}
        where user_id = ${userId} and type = ${type}
        for update`);
      return rows[0] ? normalise(rows[0]) : null;
    },

    /**
     * Adds signed deltas to a balance in one statement. Increases only: creates the row if
     * missing. Any decrease: a conditional UPDATE that matches only when the result stays
     * non-negative, so concurrent debits can never overdraw (PostgreSQL re-checks the WHERE on
     * the latest row version after waiting for a concurrent writer; the CHECK is the backstop).
     * Returns the new amounts, or null when the balance is not enough.
     */
    async applyDelta(
      userId: string,
      type: CreditType,
      availableDelta: number,
      reservedDelta: number,
      now: Date,
    ): Promise<BalanceAmounts | null> {
      // Stryker disable next-line EqualityOperator: equivalent as `availableDelta > 0`, no movement has available 0 with reserved ≥ 0 (a capture's reserved is negative)
      if (availableDelta >= 0 && reservedDelta >= 0) {
        const rows = await execute<BalanceAmounts>(sql`
          insert into ${creditBalances} (user_id, type, available, reserved, updated_at)
          values (${userId}, ${type}, ${availableDelta}, ${reservedDelta}, ${now.toISOString()})
          on conflict (user_id, type) do update set
            available = ${creditBalances}.available + excluded.available,
            reserved = ${creditBalances}.reserved + excluded.reserved,
            updated_at = excluded.updated_at
          returning available, reserved`);
        return normalise(rows[0]!);
      }
      const rows = await execute<BalanceAmounts>(sql`
        update ${creditBalances} set
          available = available + ${availableDelta}::bigint,
          reserved = reserved + ${reservedDelta}::bigint,
          updated_at = ${now.toISOString()}
        where user_id = ${userId} and type = ${type}
          and available + ${availableDelta}::bigint >= 0
          and reserved + ${reservedDelta}::bigint >= 0
        returning available, reserved`);
      return rows[0] ? normalise(rows[0]) : null;
    },

    async insertEntries(entries: NewLedgerEntry[]): Promise<LedgerEntryRow[]> {
      // Stryker disable next-line ConditionalExpression,ArrayDeclaration: equivalent, every caller inserts at least one entry
      if (entries.length === 0) return [];
      const rows = await db.insert(ledgerEntries).values(entries).returning();
      // Keep the order we inserted (returning follows it; sort by id to be explicit).
      // Stryker disable next-line MethodExpression,ArrowFunction,ArithmeticOperator: equivalent, every caller inserts one entry at a time
      return rows.sort((a, b) => a.id - b.id);
    },

    async findEntriesByKeys(userId: string, keys: string[]): Promise<LedgerEntryRow[]> {
      // Stryker disable next-line ConditionalExpression: equivalent when false, a lookup of no keys (`in` of nothing) finds nothing: this only saves the query
      if (keys.length === 0) return [];
      const rows = await db
        .select()
        .from(ledgerEntries)
        .where(and(eq(ledgerEntries.userId, userId), inArray(ledgerEntries.idempotencyKey, keys)))
        .orderBy(ledgerEntries.id);
      return rows;
    },

    /** What is still reserved for one reference (a campaign): sum of its reserved deltas. */
    async outstandingReservation(
      userId: string,
      type: CreditType,
      referenceType: string,
      referenceId: string,
    ): Promise<number> {
      const rows = await execute<{ outstanding: number | string }>(sql`
        select coalesce(sum(reserved_delta), 0) as outstanding from ${ledgerEntries}
        where user_id = ${userId} and type = ${type}
          and reference_type = ${referenceType} and reference_id = ${referenceId}`);
      // Stryker disable next-line OptionalChaining: equivalent, an aggregate without group by always returns its row
      return Number(rows[0]?.outstanding ?? 0);
    },

    async getBalances(userId: string): Promise<Map<CreditType, BalanceAmounts>> {
      const rows = await db
        .select({ type: creditBalances.type, available: creditBalances.available, reserved: creditBalances.reserved })
        .from(creditBalances)
        .where(eq(creditBalances.userId, userId));
      return new Map(rows.map((r) => [r.type, { available: r.available, reserved: r.reserved }]));
    },

    async getBalance(userId: string, type: CreditType): Promise<BalanceAmounts> {
      const rows = await db
        .select({ available: creditBalances.available, reserved: creditBalances.reserved })
        .from(creditBalances)
        .where(and(eq(creditBalances.userId, userId), eq(creditBalances.type, type)))
        .limit(1);
      return rows[0] ?? { available: 0, reserved: 0 };
    },

    /**
     * The available amount of one credit type for many users, in one query (a page of the
     * administrators' users table). Users without a balance row are absent from the map.
     */
    async getAvailableOfUsers(userIds: string[], type: CreditType): Promise<Map<string, number>> {
      // Stryker disable next-line ConditionalExpression: equivalent when false, a lookup of no users (`in` of nothing) finds nothing: this only saves the query
      if (userIds.length === 0) return new Map();
      const rows = await db
        .select({ userId: creditBalances.userId, available: creditBalances.available })
        .from(creditBalances)
        .where(and(inArray(creditBalances.userId, userIds), eq(creditBalances.type, type)));
      return new Map(rows.map((r) => [r.userId, Number(r.available)]));
    },

    async listEntries(
      userId: string,
      options: { limit: number; offset: number; type?: CreditType },
    ): Promise<{ items: LedgerEntryRow[]; total: number }> {
      const where = options.type
        ? and(eq(ledgerEntries.userId, userId), eq(ledgerEntries.type, options.type))
        : eq(ledgerEntries.userId, userId);
      const [items, totals] = await Promise.all([
        db
          .select()
          .from(ledgerEntries)
          .where(where)
          .orderBy(desc(ledgerEntries.id))
          .limit(options.limit)
          .offset(options.offset),
        db.select({ n: count() }).from(ledgerEntries).where(where),
      ]);
      // Stryker disable next-line OptionalChaining: equivalent, `count()` always returns its row
      return { items, total: Number(totals[0]?.n ?? 0) };
    },

    /** Per credit type: the sums of the entries, to reconcile against the balances. */
    async sumEntries(userId: string): Promise<Map<CreditType, BalanceAmounts>> {
      const rows = await execute<{ type: CreditType; available: number | string; reserved: number | string }>(sql`
        select type, coalesce(sum(amount), 0) as available, coalesce(sum(reserved_delta), 0) as reserved
        from ${ledgerEntries} where user_id = ${userId} group by type`);
      return new Map(rows.map((r) => [r.type, { available: Number(r.available), reserved: Number(r.reserved) }]));
    },

    async insertPayment(payment: NewPayment): Promise<PaymentRow> {
      const rows = await db
        .insert(payments)
        .values({ ...payment, updatedAt: payment.createdAt })
        .returning();
      return rows[0]!;
    },

    async findPayment(paymentId: string): Promise<PaymentRow | null> {
      const rows = await db.select().from(payments).where(eq(payments.id, paymentId)).limit(1);
      return rows[0] ?? null;
    },

    async lockPayment(paymentId: string): Promise<PaymentRow | null> {
      const rows = await db.select().from(payments).where(eq(payments.id, paymentId)).limit(1).for('update');
      return rows[0] ?? null;
    },

    async updatePayment(
      paymentId: string,
      changes: Partial<
        Pick<
          PaymentRow,
          | 'status'
          | 'completedAt'
          | 'externalId'
          | 'externalPaymentId'
          | 'checkoutUrl'
          | 'refundedCentavos'
          | 'refundShortfallCentavos'
          | 'metadata'
        >
      > & {
        updatedAt: Date;
      },
    ): Promise<PaymentRow> {
      const rows = await db.update(payments).set(changes).where(eq(payments.id, paymentId)).returning();
      return rows[0]!;
    },

    findPaymentByExternalId: (provider: PaymentProvider, externalId: string) =>
      findPaymentBy(provider, payments.externalId, externalId),

    findPaymentByExternalPaymentId: (provider: PaymentProvider, externalPaymentId: string) =>
      findPaymentBy(provider, payments.externalPaymentId, externalPaymentId),

    async listPayments(
      userId: string,
      options: { limit: number; offset: number },
    ): Promise<{ items: PaymentRow[]; total: number }> {
      const where = eq(payments.userId, userId);
      const [items, totals] = await Promise.all([
        db
          .select()
          .from(payments)
          .where(where)
          .orderBy(desc(payments.createdAt), desc(payments.id))
          .limit(options.limit)
          .offset(options.offset),
        db.select({ n: count() }).from(payments).where(where),
      ]);
      // Stryker disable next-line OptionalChaining: equivalent, `count()` always returns its row
      return { items, total: Number(totals[0]?.n ?? 0) };
    },
  };
  return repo;
}
