import crypto from 'node:crypto';
import { CREDIT_TYPES, type CreditType, type LedgerEntryKind, type Page, WELCOME_BONUS_CREDITS } from '@ecoa/shared';
import type { DbOrTx } from '../../platform/db/client.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import {
  assertPositiveInteger,
  balanceOf,
  createLedgerCore,
  type LedgerClock,
  type OperationIdentity,
  type OperationOptions,
  type Reference,
  sameOperation,
} from './ledger.core.ts';
import { createPaymentOperations } from './ledger.payments.ts';
import type { BalanceAmounts, LedgerRepository } from './ledger.repository.ts';
import type { LedgerEntryRow } from './ledger.schema.ts';
import { createTransferOperations } from './ledger.transfers.ts';

export { type LedgerClock, pgErrorCode, type Reference } from './ledger.core.ts';
export type { PaymentResult } from './ledger.payments.ts';
export type { TransferResult } from './ledger.transfers.ts';

export type LedgerServiceDeps = {
  repo: LedgerRepository;
  clock: LedgerClock;
  /** Told in the movement's transaction when credits leave `available` (webhooks' `balance.low`). */
  balanceMoved?: (change: { userId: string; type: CreditType; available: number }, tx: DbOrTx) => Promise<void>;
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

/**
 * The money core: balances per (user, credit type) and their append-only ledger.
 *
 * Every change runs in one transaction that updates the balance with a single conditional
 * statement (never below zero; the database CHECK is the backstop) and appends its entries.
 * An idempotency key makes a retry a no-op that answers the first result.
 */
export function createLedgerService(deps: LedgerServiceDeps) {
  const { clock } = deps;

  const core = createLedgerCore(deps);
  const { operate, entry } = core;

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
      /** What a replay compares besides type, kind, amounts, reference and actor (or instead of them). */
      identity?: Partial<OperationIdentity>;
    },
  ): Promise<MovementResult> {
    assertPositiveInteger(input.amount);
    return operate<MovementResult>({
      userId: input.userId,
      key: input.idempotencyKey,
      entryCount: 1,
      tx: input.tx,
      replay: (entries) => {
        const e = sameOperation(entries[0], {
          type: input.type,
          kind: input.kind,
          amount: input.availableDelta,
          reservedDelta: input.reservedDelta,
          reference: input.reference ?? null,
          actorUserId: input.actorUserId ?? null,
          ...input.identity,
        });
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
        if (input.availableDelta < 0 && deps.balanceMoved) {
          await deps.balanceMoved({ userId: input.userId, type: input.type, available: after.available }, repo.handle);
        }
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
        if (input.amount > outstanding) throw new AppError('RESERVATION_EXCEEDED', { outstanding: outstanding });
      },
      onShort: () => new AppError('RESERVATION_EXCEEDED', { outstanding: 0 }), // cannot happen: the reference held it
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
        onShort: () => new AppError('INVALID_QUANTITY'),
      });
    },

    /** Takes from `available`, never below zero (400 INSUFFICIENT_BALANCE). */
    debit(input: MovementInput): Promise<MovementResult> {
      if (!DEBIT_KINDS.has(input.kind)) throw new Error(`debit(): kind ${input.kind} is not a debit`);
      return move({
        ...input,
        availableDelta: -input.amount,
        reservedDelta: 0,
        onShort: (b) =>
          new AppError('INSUFFICIENT_BALANCE', { type: input.type, available: b.available, requested: input.amount }),
      });
    },

    /** Campaigns: holds `amount` (available → reserved) for `reference`. */
    reserve(input: Omit<MovementInput, 'kind'> & { reference: Reference }): Promise<MovementResult> {
      return move({
        ...input,
        kind: 'RESERVE',
        availableDelta: -input.amount,
        reservedDelta: input.amount,
        onShort: (b) =>
          new AppError('INSUFFICIENT_BALANCE', { type: input.type, available: b.available, requested: input.amount }),
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
     * never below zero: 400 ADJUSTMENT_BELOW_ZERO with the available amount. Each adjustment is
     * its own reference (`admin_adjustment`/<new id>); the administrator is its actor. The user
     * is checked, and held (no delete) in the same transaction as the balance change.
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
        throw new AppError('VALIDATION_FAILED', { messageKey: 'adjustmentZero' });
      }
      return move({
        ...input,
        amount: Math.abs(input.amount),
        kind: 'ADMIN_ADJUSTMENT',
        availableDelta: input.amount,
        reservedDelta: 0,
        reference: { type: 'admin_adjustment', id: crypto.randomUUID() },
        // A retry gets a new reference id, so it is not compared; the reason is part of the
        // administrator's request: another reason is another adjustment.
        identity: { reference: undefined, reason: input.reason },
        // Without it, a decrease for an unknown user would say ADJUSTMENT_BELOW_ZERO (no balance row).
        check: async (repo) => {
          if (!(await repo.lockUserKey(input.userId))) throw new AppError('USER_NOT_FOUND');
        },
        onShort: (b) => new AppError('ADJUSTMENT_BELOW_ZERO', { type: input.type, available: b.available }),
      });
    },

    /** 404 USER_NOT_FOUND unless the user exists (admin routes). */
    async assertUserExists(userId: string): Promise<void> {
      if (!(await deps.repo.userExists(userId))) throw new AppError('USER_NOT_FOUND');
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

  return {
    ...service,
    ...createTransferOperations({ ...deps, core }),
    ...createPaymentOperations({ ...deps, core }),
  };
}

export type LedgerService = ReturnType<typeof createLedgerService>;
