import type { CreditType, LedgerEntryKind, PaymentMethod, PaymentProvider, PaymentStatus } from '@ecoa/shared';
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../platform/db/client.ts';
import { users } from '../users/users.schema.ts';
import { creditBalances, type LedgerEntryRow, ledgerEntries, type PaymentRow, payments } from './ledger.schema.ts';

export type BalanceAmounts = { available: number; reserved: number };

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
    withTx: (tx) => createLedgerRepository(tx),
    transaction: (fn) => (db as Database).transaction((tx) => fn(createLedgerRepository(tx))),
  };
}

export type LedgerRepository = ReturnType<typeof ledgerQueries> & {
  /** The same repository on another handle (an outer transaction the caller already opened). */
  withTx(tx: DbOrTx): LedgerRepository;
  /** Runs `fn` in a transaction (a savepoint when this repository is already inside one). */
  transaction<T>(fn: (tx: LedgerRepository) => Promise<T>): Promise<T>;
};

function ledgerQueries(db: DbOrTx) {
  const execute = async <T>(query: ReturnType<typeof sql>): Promise<T[]> => {
    const result = (await db.execute(query)) as unknown as Rows<T>;
    return result.rows;
  };

  const repo = {
    async userExists(userId: string): Promise<boolean> {
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

    /**
     * A whole transfer in one statement: takes `cost` from the money balance only if it holds
     * at least `requiredAvailable` (≥ cost; more for the WhatsApp minimum), adds `quantity`
     * credits, and appends TRANSFER_OUT and TRANSFER_IN. The money UPDATE's WHERE is
     * re-checked on the newest row version under concurrency, and the credits and entries are
     * written only from its RETURNING row, so it is all or nothing. Null when the money row did
     * not qualify (nothing was written).
     */
    async transfer(input: {
      userId: string;
      type: CreditType;
      quantity: number;
      cost: number;
      requiredAvailable: number;
      out: Omit<EntryExtras, 'idempotencyKey'> & { idempotencyKey: string | null };
      in: Omit<EntryExtras, 'idempotencyKey'> & { idempotencyKey: string | null };
      now: Date;
    }): Promise<LedgerEntryRow[] | null> {
      const now = input.now.toISOString();
      const { out, in: into } = input;
      const rows = await execute<RawEntry>(sql`
        with money as (
          update ${creditBalances} set available = available - ${input.cost}::bigint, updated_at = ${now}
          where user_id = ${input.userId} and type = 'BALANCE' and available >= ${input.requiredAvailable}::bigint
          returning available, reserved
        ), credits as (
          insert into ${creditBalances} (user_id, type, available, reserved, updated_at)
          select ${input.userId}::uuid, ${input.type}::text, ${input.quantity}::bigint, 0, ${now}::timestamptz from money
          on conflict (user_id, type) do update set
            available = ${creditBalances}.available + excluded.available,
            updated_at = excluded.updated_at
          returning available, reserved
        )
        insert into ${ledgerEntries} (user_id, type, kind, amount, balance_after, reserved_delta, reserved_after,
          reference_type, reference_id, actor_user_id, reason, idempotency_key, metadata, created_at)
        select ${input.userId}::uuid, 'BALANCE', 'TRANSFER_OUT', ${-input.cost}::bigint, money.available, 0, money.reserved,
          ${out.referenceType}::text, ${out.referenceId}::text, ${out.actorUserId}::uuid, ${out.reason}::text, ${out.idempotencyKey}::text,
          ${JSON.stringify(out.metadata)}::jsonb, ${now}::timestamptz from money
        union all
        select ${input.userId}::uuid, ${input.type}::text, 'TRANSFER_IN', ${input.quantity}::bigint, credits.available, 0,
          credits.reserved, ${into.referenceType}::text, ${into.referenceId}::text, ${into.actorUserId}::uuid, ${into.reason}::text,
          ${into.idempotencyKey}::text, ${JSON.stringify(into.metadata)}::jsonb, ${now}::timestamptz from credits
        returning *`);
      if (rows.length === 0) return null;
      return rows.map(fromRawEntry).sort((a, b) => a.id - b.id);
    },

    async insertEntries(entries: NewLedgerEntry[]): Promise<LedgerEntryRow[]> {
      if (entries.length === 0) return [];
      const rows = await db.insert(ledgerEntries).values(entries).returning();
      // Keep the order we inserted (returning follows it; sort by id to be explicit).
      return rows.sort((a, b) => a.id - b.id);
    },

    async findEntriesByKeys(userId: string, keys: string[]): Promise<LedgerEntryRow[]> {
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

    async findPaymentByExternalId(provider: PaymentProvider, externalId: string): Promise<PaymentRow | null> {
      const rows = await db
        .select()
        .from(payments)
        .where(and(eq(payments.provider, provider), eq(payments.externalId, externalId)))
        .limit(1);
      return rows[0] ?? null;
    },

    async findPaymentByExternalPaymentId(
      provider: PaymentProvider,
      externalPaymentId: string,
    ): Promise<PaymentRow | null> {
      const rows = await db
        .select()
        .from(payments)
        .where(and(eq(payments.provider, provider), eq(payments.externalPaymentId, externalPaymentId)))
        .limit(1);
      return rows[0] ?? null;
    },

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
      return { items, total: Number(totals[0]?.n ?? 0) };
    },
  };
  return repo;
}

type EntryExtras = Pick<
  NewLedgerEntry,
  'referenceType' | 'referenceId' | 'actorUserId' | 'reason' | 'idempotencyKey' | 'metadata'
>;

/** A ledger_entries row as raw SQL returns it (snake_case; int8 as number, string or bigint by driver). */
type RawEntry = Record<string, unknown>;

function fromRawEntry(r: RawEntry): LedgerEntryRow {
  const n = (v: unknown) => Number(v);
  const metadata = typeof r.metadata === 'string' ? JSON.parse(r.metadata) : (r.metadata ?? null);
  return {
    id: n(r.id),
    userId: r.user_id as string,
    type: r.type as CreditType,
    kind: r.kind as LedgerEntryKind,
    amount: n(r.amount),
    balanceAfter: n(r.balance_after),
    reservedDelta: n(r.reserved_delta),
    reservedAfter: n(r.reserved_after),
    referenceType: (r.reference_type as string | null) ?? null,
    referenceId: (r.reference_id as string | null) ?? null,
    actorUserId: (r.actor_user_id as string | null) ?? null,
    reason: (r.reason as string | null) ?? null,
    idempotencyKey: (r.idempotency_key as string | null) ?? null,
    metadata,
    createdAt: r.created_at instanceof Date ? r.created_at : new Date(String(r.created_at)),
  };
}

/** Raw rows come back with bigint columns as numbers (node-postgres parser) or strings/bigints (PGlite). */
function normalise(row: { available: unknown; reserved: unknown }): BalanceAmounts {
  return { available: Number(row.available), reserved: Number(row.reserved) };
}
