import crypto from 'node:crypto';
import {
  CREDIT_TYPES,
  type CreditType,
  costCentavos,
  LEDGER_MESSAGES,
  type LedgerEntryKind,
  type Page,
  type PaymentMethod,
  type TransferableCreditType,
  WELCOME_BONUS_CREDITS,
  WHATSAPP_MIN_REAIS,
} from '@ecoa/shared';
import type { DbOrTx } from '../../platform/db/client.ts';
import { AppError, badRequest, conflict, notFound } from '../../platform/errors/app-error.ts';
import type { BalanceAmounts, LedgerRepository, NewLedgerEntry } from './ledger.repository.ts';
import type { LedgerEntryRow, PaymentRow } from './ledger.schema.ts';

/** Structurally the platform clock (`platform/clock`): services never call `new Date()`. */
export type LedgerClock = { now(): Date };

export type LedgerServiceDeps = { repo: LedgerRepository; clock: LedgerClock };

export type Reference = { type: string; id: string };

/** Options every operation takes. */
type OperationOptions = {
  /** A retry with the same key (per user) changes nothing and returns the first result. */
  idempotencyKey?: string;
  /** Who did it when it is not the user (an administrator). */
  actorUserId?: string | null;
  reason?: string | null;
  /** Run inside a transaction the caller already opened (a savepoint in it). */
  tx?: DbOrTx;
};

export type MovementInput = OperationOptions & {
  userId: string;
  type: CreditType;
  /** Positive integer: centavos for BALANCE, units for the credit types. */
  amount: number;
  kind: LedgerEntryKind;
  reference?: Reference;
  metadata?: Record<string, unknown>;
};

export type MovementResult = {
  entry: LedgerEntryRow;
  /** The balance right after this movement (from the entry, so a replay shows the original). */
  balance: BalanceAmounts;
  /** True when this call found the result of an earlier call with the same idempotency key. */
  replayed: boolean;
};

export type TransferResult = {
  transferId: string;
  type: TransferableCreditType;
  quantity: number;
  unitPrice: number;
  costCentavos: number;
  money: BalanceAmounts;
  credits: BalanceAmounts;
  entries: LedgerEntryRow[];
  replayed: boolean;
};

export type PaymentResult = {
  payment: PaymentRow;
  entry: LedgerEntryRow | null;
  replayed: boolean;
};

export type Balances = Record<CreditType, BalanceAmounts>;

const CREDIT_KINDS: ReadonlySet<LedgerEntryKind> = new Set([
  'PURCHASE',
  'TRANSFER_IN',
  'WELCOME_BONUS',
  'ADMIN_ADJUSTMENT',
  'REFUND',
]);
const DEBIT_KINDS: ReadonlySet<LedgerEntryKind> = new Set([
  'TRANSFER_OUT',
  'ADMIN_ADJUSTMENT',
  'REFUND',
  'ENRICHMENT_CHARGE',
]);

export const WELCOME_BONUS_TYPES = ['SMSSHORT', 'SMSFLASH', 'URA'] as const satisfies readonly CreditType[];
const WELCOME_BONUS_KEY = 'welcome-bonus';

const IDEMPOTENCY_CONSTRAINT = 'ledger_entries_user_idempotency_key';

export const ledgerErrors = {
  invalidQuantity: () => badRequest('INVALID_QUANTITY', LEDGER_MESSAGES.invalidQuantity),
  whatsappMinimum: () => badRequest('WHATSAPP_MINIMUM', LEDGER_MESSAGES.whatsappMinimum),
  priceNotConfigured: (type: CreditType) =>
    badRequest('PRICE_NOT_CONFIGURED', LEDGER_MESSAGES.priceNotConfigured, { type }),
  insufficient: (type: CreditType, available: number, requested: number) =>
    badRequest(
      'INSUFFICIENT_BALANCE',
      type === 'BALANCE' ? LEDGER_MESSAGES.insufficientBalance : 'Créditos insuficientes.',
      { type, available, requested },
    ),
  belowZero: (type: CreditType, available: number) =>
    badRequest('ADJUSTMENT_BELOW_ZERO', LEDGER_MESSAGES.adjustmentBelowZero, { type, available }),
  keyReused: () => conflict('IDEMPOTENCY_KEY_REUSED', LEDGER_MESSAGES.idempotencyKeyReused),
  userNotFound: () => notFound('USER_NOT_FOUND', LEDGER_MESSAGES.userNotFound),
  reservationExceeded: (outstanding: number) =>
    new AppError('RESERVATION_EXCEEDED', 409, 'Valor acima do que está reservado para esta referência.', {
      outstanding,
    }),
  paymentNotFound: () => notFound('PAYMENT_NOT_FOUND', 'Pagamento não encontrado.'),
};

/**
 * The money core: balances per (user, credit type) and their append-only ledger.
 *
 * Every change runs in one transaction that updates the balance with a single conditional
 * statement (never below zero; the database CHECK is the backstop) and appends its entries.
 * An idempotency key makes a retry a no-op that answers the first result.
 */
export function createLedgerService(deps: LedgerServiceDeps) {
  const { clock } = deps;

  /**
   * Runs one operation: replays it if its idempotency key was already used, else runs `run` in
   * a transaction (a savepoint inside `tx`). A concurrent twin with the same key loses on the
   * unique index, rolls back, and replays the winner's result.
   */
  async function operate<T>(opts: {
    userId: string;
    key: string | undefined;
    /** How many entries the operation writes: entry i gets key, key#1, key#2… */
    entryCount: number;
    tx: DbOrTx | undefined;
    replay: (entries: LedgerEntryRow[], repo: LedgerRepository) => Promise<T> | T;
    run: (repo: LedgerRepository, keys: (string | null)[]) => Promise<T>;
  }): Promise<T> {
    const base = opts.tx ? deps.repo.withTx(opts.tx) : deps.repo;
    const keys = Array.from({ length: opts.entryCount }, (_, i) =>
      opts.key === undefined ? null : i === 0 ? opts.key : `${opts.key}#${i}`,
    );
    const findExisting = () =>
      base.findEntriesByKeys(
        opts.userId,
        keys.filter((k): k is string => k !== null),
      );
    if (opts.key !== undefined) {
      const existing = await findExisting();
      if (existing.length > 0) return opts.replay(existing, base);
    }
    try {
      return await base.transaction((tx) => opts.run(tx, keys));
    } catch (err) {
      if (opts.key !== undefined && pgErrorCode(err, IDEMPOTENCY_CONSTRAINT) === '23505') {
        const existing = await findExisting();
        if (existing.length > 0) return opts.replay(existing, base);
      }
      if (pgErrorCode(err) === '23503') throw ledgerErrors.userNotFound();
      throw err;
    }
  }

  function entry(
    input: Omit<
      NewLedgerEntry,
      'createdAt' | 'metadata' | 'actorUserId' | 'reason' | 'referenceType' | 'referenceId'
    > & {
      reference?: Reference;
      actorUserId?: string | null;
      reason?: string | null;
      metadata?: Record<string, unknown> | null;
    },
  ): NewLedgerEntry {
    const { reference, ...rest } = input;
    return {
      ...rest,
      referenceType: reference?.type ?? null,
      referenceId: reference?.id ?? null,
      actorUserId: input.actorUserId ?? null,
      reason: input.reason ?? null,
      metadata: input.metadata ?? null,
      createdAt: clock.now(),
    };
  }

  const balanceOf = (e: LedgerEntryRow): BalanceAmounts => ({ available: e.balanceAfter, reserved: e.reservedAfter });

  function sameMovement(e: LedgerEntryRow | undefined, type: CreditType, kind: LedgerEntryKind, amount: number) {
    if (!e || e.type !== type || e.kind !== kind || e.amount !== amount) throw ledgerErrors.keyReused();
    return e;
  }

  /**
   * One movement of `available` (signed) and `reserved` (signed) with its entry. `check` runs
   * first in the transaction (it may lock and refuse); `onShort` says why the balance could not
   * move.
   */
  async function move(
    input: MovementInput & {
      availableDelta: number;
      reservedDelta: number;
      check?: (repo: LedgerRepository) => Promise<void>;
      onShort: (b: BalanceAmounts) => AppError;
    },
  ): Promise<MovementResult> {
    assertPositiveInteger(input.amount);
    return operate<MovementResult>({
      userId: input.userId,
      key: input.idempotencyKey,
      entryCount: 1,
      tx: input.tx,
      replay: (entries) => {
        const e = sameMovement(entries[0], input.type, input.kind, input.availableDelta);
        if (e.reservedDelta !== input.reservedDelta) throw ledgerErrors.keyReused();
        return { entry: e, balance: balanceOf(e), replayed: true };
      },
      run: async (repo, [key]) => {
        await input.check?.(repo);
        const after = await repo.applyDelta(
          input.userId,
          input.type,
          input.availableDelta,
          input.reservedDelta,
          clock.now(),
        );
        if (!after) throw input.onShort(await repo.getBalance(input.userId, input.type));
        const [e] = await repo.insertEntries([
          entry({
            userId: input.userId,
            type: input.type,
            kind: input.kind,
            amount: input.availableDelta,
            balanceAfter: after.available,
            reservedDelta: input.reservedDelta,
            reservedAfter: after.reserved,
            reference: input.reference,
            actorUserId: input.actorUserId,
            reason: input.reason,
            idempotencyKey: key ?? null,
            metadata: input.metadata,
          }),
        ]);
        return { entry: e!, balance: after, replayed: false };
      },
    });
  }

  /** Moves reserved credits out (capture) or back to available (release), within what the reference holds. */
  async function settleReservation(
    input: Omit<MovementInput, 'kind'> & { reference: Reference },
    kind: 'CAPTURE' | 'RELEASE',
  ): Promise<MovementResult> {
    return move({
      ...input,
      kind,
      availableDelta: kind === 'RELEASE' ? input.amount : 0,
      reservedDelta: -input.amount,
      // Serialise settlements of this balance, then check what this reference still holds.
      check: async (repo) => {
        await repo.lockBalance(input.userId, input.type);
        const outstanding = await repo.outstandingReservation(
          input.userId,
          input.type,
          input.reference.type,
          input.reference.id,
        );
        if (input.amount > outstanding) throw ledgerErrors.reservationExceeded(outstanding);
      },
      onShort: () => ledgerErrors.reservationExceeded(0), // cannot happen: the reference held it
    });
  }

  const service = {
    /** Adds to `available`. Kinds: PURCHASE, TRANSFER_IN, WELCOME_BONUS, ADMIN_ADJUSTMENT, REFUND. */
    credit(input: MovementInput): Promise<MovementResult> {
      if (!CREDIT_KINDS.has(input.kind)) throw new Error(`credit(): kind ${input.kind} is not a credit`);
      return move({
        ...input,
        availableDelta: input.amount,
        reservedDelta: 0,
        onShort: () => ledgerErrors.invalidQuantity(),
      });
    },

    /** Takes from `available`, never below zero (400 INSUFFICIENT_BALANCE). */
    debit(input: MovementInput): Promise<MovementResult> {
      if (!DEBIT_KINDS.has(input.kind)) throw new Error(`debit(): kind ${input.kind} is not a debit`);
      return move({
        ...input,
        availableDelta: -input.amount,
        reservedDelta: 0,
        onShort: (b) => ledgerErrors.insufficient(input.type, b.available, input.amount),
      });
    },

    /** Campaigns: holds `amount` (available → reserved) for `reference`. */
    reserve(input: Omit<MovementInput, 'kind'> & { reference: Reference }): Promise<MovementResult> {
      return move({
        ...input,
        kind: 'RESERVE',
        availableDelta: -input.amount,
        reservedDelta: input.amount,
        onShort: (b) => ledgerErrors.insufficient(input.type, b.available, input.amount),
      });
    },

    /** Campaigns: consumes `amount` of what `reference` reserved (sent messages). */
    capture(input: Omit<MovementInput, 'kind'> & { reference: Reference }): Promise<MovementResult> {
      return settleReservation(input, 'CAPTURE');
    },

    /** Campaigns: returns `amount` of what `reference` reserved to available (not sent). */
    release(input: Omit<MovementInput, 'kind'> & { reference: Reference }): Promise<MovementResult> {
      return settleReservation(input, 'RELEASE');
    },

    /** What `reference` still holds reserved of `type`. */
    outstandingReservation(userId: string, type: CreditType, reference: Reference): Promise<number> {
      return deps.repo.outstandingReservation(userId, type, reference.type, reference.id);
    },

    /**
     * Turns money into credits at the user's unit price, atomically: the money balance is
     * locked, the rules checked, money out and credits in with two entries, or nothing.
     */
    async transfer(
      input: OperationOptions & { userId: string; type: TransferableCreditType; quantity: number },
    ): Promise<TransferResult> {
      const { userId, type, quantity } = input;
      if (!Number.isSafeInteger(quantity) || quantity <= 0) throw ledgerErrors.invalidQuantity();
      return operate<TransferResult>({
        userId,
        key: input.idempotencyKey,
        entryCount: 2,
        tx: input.tx,
        replay: (entries) => {
          const out = entries.find((e) => e.kind === 'TRANSFER_OUT');
          const into = entries.find((e) => e.kind === 'TRANSFER_IN');
          if (!out || !into || into.type !== type || into.amount !== quantity) throw ledgerErrors.keyReused();
          const meta = (out.metadata ?? {}) as { unitPrice?: number };
          return {
            transferId: out.referenceId ?? '',
            type,
            quantity,
            unitPrice: meta.unitPrice ?? 0,
            costCentavos: -out.amount,
            money: balanceOf(out),
            credits: balanceOf(into),
            entries: [out, into],
            replayed: true,
          };
        },
        run: async (repo, [outKey, inKey]) => {
          const prices = await repo.getUnitPrices(userId);
          if (!prices) throw ledgerErrors.userNotFound();
          const unitPrice = prices[type];
          if (!unitPrice) throw ledgerErrors.priceNotConfigured(type);
          const cost = costCentavos(quantity, unitPrice);
          // Spec section 5: WhatsApp needs "amount plus money balance" ≥ 3000, where amount is the
          // quantity asked for and the balance is in reais; in centavos: q × 100 + balance ≥ 300000.
          const whatsappFloor = type === 'WHATSAPP' ? WHATSAPP_MIN_REAIS * 100 - quantity * 100 : 0;
          const transferId = crypto.randomUUID();
          const shared = {
            referenceType: 'transfer',
            referenceId: transferId,
            actorUserId: input.actorUserId ?? null,
            reason: input.reason ?? null,
            metadata: { creditType: type, quantity, unitPrice, costCentavos: cost },
          };
          const entries = await repo.transfer({
            userId,
            type,
            quantity,
            cost,
            requiredAvailable: Math.max(cost, whatsappFloor),
            out: { ...shared, idempotencyKey: outKey ?? null },
            in: { ...shared, idempotencyKey: inKey ?? null },
            now: clock.now(),
          });
          if (!entries) {
            // Nothing was written; say why (in the spec's order: the WhatsApp minimum first).
            const money = await repo.getBalance(userId, 'BALANCE');
            if (money.available < whatsappFloor) throw ledgerErrors.whatsappMinimum();
            throw ledgerErrors.invalidQuantity();
          }
          const [out, into] = [
            entries.find((e) => e.kind === 'TRANSFER_OUT')!,
            entries.find((e) => e.kind === 'TRANSFER_IN')!,
          ];
          return {
            transferId,
            type,
            quantity,
            unitPrice,
            costCentavos: cost,
            money: balanceOf(out),
            credits: balanceOf(into),
            entries: [out, into],
            replayed: false,
          };
        },
      });
    },

    /**
     * The sign-up welcome bonus: 15 SMSSHORT + 15 SMSFLASH + 15 URA, once per user (a second
     * call changes nothing). Pass the sign-up transaction as `tx` to grant it atomically with
     * the new user.
     */
    async grantWelcomeBonus(userId: string, options: { tx?: DbOrTx } = {}): Promise<MovementResult[]> {
      return operate<MovementResult[]>({
        userId,
        key: WELCOME_BONUS_KEY,
        entryCount: WELCOME_BONUS_TYPES.length,
        tx: options.tx,
        replay: (entries) => entries.map((e) => ({ entry: e, balance: balanceOf(e), replayed: true })),
        run: async (repo, keys) => {
          const now = clock.now();
          const results: MovementResult[] = [];
          for (const [i, type] of WELCOME_BONUS_TYPES.entries()) {
            const after = await repo.applyDelta(userId, type, WELCOME_BONUS_CREDITS, 0, now);
            const [e] = await repo.insertEntries([
              entry({
                userId,
                type,
                kind: 'WELCOME_BONUS',
                amount: WELCOME_BONUS_CREDITS,
                balanceAfter: after!.available,
                reservedDelta: 0,
                reservedAfter: after!.reserved,
                reference: { type: 'user', id: userId },
                reason: 'Bônus de boas-vindas',
                idempotencyKey: keys[i] ?? null,
              }),
            ]);
            results.push({ entry: e!, balance: after!, replayed: false });
          }
          return results;
        },
      });
    },

    /**
     * An administrator's signed adjustment of one balance (units, or centavos for BALANCE),
     * never below zero: 400 ADJUSTMENT_BELOW_ZERO with the available amount.
     */
    async adjust(
      input: OperationOptions & {
        userId: string;
        type: CreditType;
        amount: number;
        actorUserId: string;
        reason: string;
      },
    ): Promise<MovementResult> {
      if (!Number.isSafeInteger(input.amount) || input.amount === 0) {
        throw badRequest('VALIDATION_FAILED', LEDGER_MESSAGES.adjustmentZero);
      }
      const base = input.tx ? deps.repo.withTx(input.tx) : deps.repo;
      if (!(await base.userExists(input.userId))) {
        throw ledgerErrors.userNotFound();
      }
      const magnitude = Math.abs(input.amount);
      return move({
        ...input,
        amount: magnitude,
        kind: 'ADMIN_ADJUSTMENT',
        availableDelta: input.amount,
        reservedDelta: 0,
        reference: { type: 'admin_adjustment', id: input.actorUserId },
        onShort: (b) => ledgerErrors.belowZero(input.type, b.available),
      });
    },

    /**
     * An administrator records a MANUAL or PIX payment: the payment (SUCCEEDED) and its
     * PURCHASE entry are written together, so the money is credited at once, exactly once.
     */
    async recordManualPayment(
      input: OperationOptions & {
        userId: string;
        amountCentavos: number;
        method: Extract<PaymentMethod, 'MANUAL' | 'PIX'>;
        actorUserId: string;
        reason: string;
      },
    ): Promise<PaymentResult> {
      assertPositiveInteger(input.amountCentavos);
      return operate<PaymentResult>({
        userId: input.userId,
        key: input.idempotencyKey === undefined ? undefined : `admin-payment:${input.idempotencyKey}`,
        entryCount: 1,
        tx: input.tx,
        replay: async (entries, repo) => {
          const e = sameMovement(entries[0], 'BALANCE', 'PURCHASE', input.amountCentavos);
          const payment = await repo.findPayment(e.referenceId ?? '');
          if (!payment) throw ledgerErrors.paymentNotFound();
          return { payment, entry: e, replayed: true };
        },
        run: async (repo, [key]) => {
          if (!(await repo.userExists(input.userId))) throw ledgerErrors.userNotFound();
          const now = clock.now();
          const payment = await repo.insertPayment({
            userId: input.userId,
            amountCentavos: input.amountCentavos,
            method: input.method,
            provider: 'MANUAL',
            status: 'SUCCEEDED',
            reason: input.reason,
            createdBy: input.actorUserId,
            createdAt: now,
            completedAt: now,
          });
          const e = await creditPurchase(repo, payment, key ?? `payment:${payment.id}`, input.actorUserId);
          return { payment, entry: e, replayed: false };
        },
      });
    },

    /** A card payment waiting for the provider (the Stripe checkout creates it). */
    async createPendingPayment(input: {
      userId: string;
      amountCentavos: number;
      method: PaymentMethod;
      provider: 'STRIPE' | 'MANUAL';
      externalId?: string | null;
      reason?: string | null;
      successUrl?: string | null;
      cancelUrl?: string | null;
    }): Promise<PaymentRow> {
      assertPositiveInteger(input.amountCentavos);
      const now = clock.now();
      return deps.repo.insertPayment({
        userId: input.userId,
        amountCentavos: input.amountCentavos,
        method: input.method,
        provider: input.provider,
        status: 'PENDING',
        reason: input.reason ?? null,
        createdBy: input.userId,
        externalId: input.externalId ?? null,
        successUrl: input.successUrl ?? null,
        cancelUrl: input.cancelUrl ?? null,
        createdAt: now,
        completedAt: null,
      });
    },

    /** Records the provider's checkout (its id and the page the customer pays on). */
    async attachCheckout(
      paymentId: string,
      checkout: { externalId: string; checkoutUrl: string },
    ): Promise<PaymentRow> {
      return deps.repo.updatePayment(paymentId, { ...checkout, updatedAt: clock.now() });
    },

    /** Notes something about a payment without changing its status (e.g. a refused event). */
    async flagPayment(paymentId: string, flag: Record<string, unknown>): Promise<void> {
      await deps.repo.transaction(async (repo) => {
        const payment = await repo.lockPayment(paymentId);
        if (!payment) return;
        await repo.updatePayment(paymentId, {
          metadata: { ...(payment.metadata ?? {}), ...flag },
          updatedAt: clock.now(),
        });
      });
    },

    findPaymentByExternalPaymentId(provider: 'STRIPE' | 'MANUAL', externalPaymentId: string) {
      return deps.repo.findPaymentByExternalPaymentId(provider, externalPaymentId);
    },

    /**
     * The provider refunded `totalRefundedCentavos` of a payment so far (cumulative, as Stripe
     * reports it). Takes the new part back from the money balance — never below zero: what
     * cannot be taken is recorded as `refundShortfallCentavos` for the team to follow up.
     * Repeated or stale events change nothing. A payment never credited (refund seen before
     * its success) is just marked REFUNDED, and will never be credited.
     */
    async refundPayment(
      paymentId: string,
      totalRefundedCentavos: number,
    ): Promise<{ payment: PaymentRow; entry: LedgerEntryRow | null; shortfallCentavos: number; replayed: boolean }> {
      return deps.repo.transaction(async (repo) => {
        const payment = await repo.lockPayment(paymentId);
        if (!payment) throw ledgerErrors.paymentNotFound();
        const total = Math.min(totalRefundedCentavos, payment.amountCentavos);
        const delta = total - payment.refundedCentavos;
        if (delta <= 0) return { payment, entry: null, shortfallCentavos: 0, replayed: true };
        const now = clock.now();
        const fully = total >= payment.amountCentavos;
        if (payment.status !== 'SUCCEEDED' && payment.status !== 'REFUNDED') {
          const updated = await repo.updatePayment(paymentId, {
            status: 'REFUNDED',
            refundedCentavos: total,
            updatedAt: now,
          });
          return { payment: updated, entry: null, shortfallCentavos: 0, replayed: false };
        }
        const money = (await repo.lockBalance(payment.userId, 'BALANCE')) ?? { available: 0, reserved: 0 };
        const take = Math.min(delta, money.available);
        const shortfall = delta - take;
        let e: LedgerEntryRow | null = null;
        if (take > 0) {
          const after = await repo.applyDelta(payment.userId, 'BALANCE', -take, 0, now);
          [e = null] = await repo.insertEntries([
            entry({
              userId: payment.userId,
              type: 'BALANCE',
              kind: 'REFUND',
              amount: -take,
              balanceAfter: after!.available,
              reservedDelta: 0,
              reservedAfter: after!.reserved,
              reference: { type: 'payment', id: payment.id },
              reason: shortfall > 0 ? `Estorno parcial: faltaram ${shortfall} centavos de saldo` : 'Estorno',
              idempotencyKey: `refund:${payment.id}:${total}`,
              metadata: { refundedCentavos: total, shortfallCentavos: shortfall },
            }),
          ]);
        }
        const updated = await repo.updatePayment(paymentId, {
          status: fully ? 'REFUNDED' : payment.status,
          refundedCentavos: total,
          refundShortfallCentavos: payment.refundShortfallCentavos + shortfall,
          updatedAt: now,
        });
        return { payment: updated, entry: e, shortfallCentavos: shortfall, replayed: false };
      });
    },

    /**
     * Marks a payment SUCCEEDED and credits its amount, exactly once: the payment row is locked,
     * and the PURCHASE entry's key is `payment:<id>`. A second call (a duplicate webhook)
     * changes nothing and answers `replayed: true`. A REFUNDED payment is never credited again.
     * A FAILED or CANCELED one is: a verified "paid" from the provider is authoritative (the
     * customer was charged), whatever we inferred from events that arrived before it.
     */
    async completePayment(
      paymentId: string,
      changes: { externalPaymentId?: string | null } = {},
    ): Promise<PaymentResult> {
      return deps.repo.transaction(async (repo) => {
        const payment = await repo.lockPayment(paymentId);
        if (!payment) throw ledgerErrors.paymentNotFound();
        if (payment.status === 'SUCCEEDED' || payment.status === 'REFUNDED') {
          const [e] = await repo.findEntriesByKeys(payment.userId, [`payment:${payment.id}`]);
          return { payment, entry: e ?? null, replayed: true };
        }
        const now = clock.now();
        const updated = await repo.updatePayment(paymentId, {
          status: 'SUCCEEDED',
          completedAt: now,
          updatedAt: now,
          ...(changes.externalPaymentId ? { externalPaymentId: changes.externalPaymentId } : {}),
        });
        const e = await creditPurchase(repo, updated, `payment:${updated.id}`, null);
        return { payment: updated, entry: e, replayed: false };
      });
    },

    /** PENDING → FAILED or CANCELED; any other status is left as is (late or duplicate events). */
    async closePendingPayment(paymentId: string, status: 'FAILED' | 'CANCELED'): Promise<PaymentRow> {
      return deps.repo.transaction(async (repo) => {
        const payment = await repo.lockPayment(paymentId);
        if (!payment) throw ledgerErrors.paymentNotFound();
        if (payment.status !== 'PENDING') return payment;
        return repo.updatePayment(paymentId, { status, updatedAt: clock.now() });
      });
    },

    /** 404 USER_NOT_FOUND unless the user exists (admin routes). */
    async assertUserExists(userId: string): Promise<void> {
      if (!(await deps.repo.userExists(userId))) throw ledgerErrors.userNotFound();
    },

    findPayment(paymentId: string): Promise<PaymentRow | null> {
      return deps.repo.findPayment(paymentId);
    },

    /** Every credit type (BALANCE in centavos), zero when never touched. */
    async getBalances(userId: string): Promise<Balances> {
      const rows = await deps.repo.getBalances(userId);
      return Object.fromEntries(CREDIT_TYPES.map((t) => [t, rows.get(t) ?? { available: 0, reserved: 0 }])) as Balances;
    },

    /** The money balance (available BALANCE) in centavos; `/api/me` shows it in reais. */
    async getMoneyBalanceCentavos(userId: string): Promise<number> {
      return (await deps.repo.getBalance(userId, 'BALANCE')).available;
    },

    /**
     * The money balances (available BALANCE, centavos) of many users in one query: every id
     * asked for is in the map, 0 when the user never had money (or does not exist).
     */
    async getMoneyBalancesCentavos(userIds: readonly string[]): Promise<Map<string, number>> {
      const unique = [...new Set(userIds)];
      const found = await deps.repo.getAvailableOfUsers(unique, 'BALANCE');
      return new Map(unique.map((id) => [id, found.get(id) ?? 0]));
    },

    async listEntries(
      userId: string,
      options: { page: number; pageSize: number; type?: CreditType },
    ): Promise<Page<LedgerEntryRow>> {
      const { items, total } = await deps.repo.listEntries(userId, {
        limit: options.pageSize,
        offset: (options.page - 1) * options.pageSize,
        type: options.type,
      });
      return { items, total, page: options.page, pageSize: options.pageSize };
    },

    async listPayments(userId: string, options: { page: number; pageSize: number }): Promise<Page<PaymentRow>> {
      const { items, total } = await deps.repo.listPayments(userId, {
        limit: options.pageSize,
        offset: (options.page - 1) * options.pageSize,
      });
      return { items, total, page: options.page, pageSize: options.pageSize };
    },

    /**
     * Checks the ledger against the balances: per type, sum(amount) must equal available and
     * sum(reserved_delta) reserved. Returns the types that disagree (none, always).
     */
    async reconcile(
      userId: string,
    ): Promise<{ ok: boolean; mismatches: { type: CreditType; balance: BalanceAmounts; entries: BalanceAmounts }[] }> {
      const [balances, sums] = await Promise.all([deps.repo.getBalances(userId), deps.repo.sumEntries(userId)]);
      const mismatches = [];
      for (const type of CREDIT_TYPES) {
        const balance = balances.get(type) ?? { available: 0, reserved: 0 };
        const entries = sums.get(type) ?? { available: 0, reserved: 0 };
        if (balance.available !== entries.available || balance.reserved !== entries.reserved) {
          mismatches.push({ type, balance, entries });
        }
      }
      return { ok: mismatches.length === 0, mismatches };
    },
  };

  async function creditPurchase(
    repo: LedgerRepository,
    payment: PaymentRow,
    key: string,
    actorUserId: string | null,
  ): Promise<LedgerEntryRow> {
    const after = await repo.applyDelta(payment.userId, 'BALANCE', payment.amountCentavos, 0, clock.now());
    const [e] = await repo.insertEntries([
      entry({
        userId: payment.userId,
        type: 'BALANCE',
        kind: 'PURCHASE',
        amount: payment.amountCentavos,
        balanceAfter: after!.available,
        reservedDelta: 0,
        reservedAfter: after!.reserved,
        reference: { type: 'payment', id: payment.id },
        actorUserId,
        reason: payment.reason,
        idempotencyKey: key,
        metadata: { method: payment.method, provider: payment.provider },
      }),
    ]);
    return e!;
  }

  return service;
}

export type LedgerService = ReturnType<typeof createLedgerService>;

function assertPositiveInteger(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount <= 0) {
    throw badRequest('INVALID_AMOUNT', 'O valor deve ser um número inteiro maior que zero.');
  }
}

/** The PostgreSQL SQLSTATE of an error (drizzle wraps driver errors in `cause`); with `constraint`, only for it. */
export function pgErrorCode(err: unknown, constraint?: string): string | undefined {
  let current: unknown = err;
  for (let depth = 0; current && depth < 5; depth++) {
    const e = current as { code?: unknown; constraint?: unknown; message?: unknown; cause?: unknown };
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) {
      if (!constraint) return e.code;
      if (e.constraint === constraint || (typeof e.message === 'string' && e.message.includes(constraint))) {
        return e.code;
      }
      return undefined;
    }
    current = e.cause;
  }
  return undefined;
}
