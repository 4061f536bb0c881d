import type { CreditType, LedgerEntryKind } from '@ecoa/shared';
import type { DbOrTx } from '../../platform/db/client.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import type { BalanceAmounts, LedgerRepository, NewLedgerEntry } from './ledger.repository.ts';
import type { LedgerEntryRow } from './ledger.schema.ts';

/**
 * What the ledger's operations share: running one operation in a transaction behind its
 * idempotency key, building entries, the errors. `ledger.service.ts` (movements, transfers,
 * adjustments) and `ledger.payments.ts` (payments) are built on it.
 */

/** Structurally the platform clock (`platform/clock`): services never call `new Date()`. */
export type LedgerClock = { now(): Date };

export type LedgerCoreDeps = { repo: LedgerRepository; clock: LedgerClock };

export type Reference = { type: string; id: string };

/** Options every operation takes. */
export type OperationOptions = {
  /** A retry with the same key (per user) changes nothing and returns the first result. */
  idempotencyKey?: string;
  /** Who did it when it is not the user (an administrator). */
  actorUserId?: string | null;
  reason?: string | null;
  /** Run inside a transaction the caller already opened (a savepoint in it). */
  tx?: DbOrTx;
};

export type NewEntryInput = Omit<
  NewLedgerEntry,
  'createdAt' | 'metadata' | 'actorUserId' | 'reason' | 'referenceType' | 'referenceId'
> & {
  reference?: Reference;
  actorUserId?: string | null;
  reason?: string | null;
  metadata?: Record<string, unknown> | null;
};

export function createLedgerCore(deps: LedgerCoreDeps) {
  const { clock } = deps;

  /**
   * Runs one operation: replays it if its idempotency key was already used, else runs `run` in
   * a transaction (a savepoint inside `tx`). A concurrent twin with the same key loses on the
   * unique index, rolls back, and replays the winner's result.
   */
  type OperateOptions<T> = {
    userId: string;
    key: string | undefined;
    /** How many entries the operation writes: entry i gets key, key#1, key#2… */
    entryCount: number;
    tx: DbOrTx | undefined;
    replay: (entries: LedgerEntryRow[], repo: LedgerRepository) => Promise<T> | T;
  };

  /** The keys of an operation's entries: entry i gets key, key#1, key#2…; none without a key. */
  const keysOf = (key: string | undefined, count: number): string[] =>
    key === undefined ? [] : Array.from({ length: count }, (_, i) => (i === 0 ? key : `${key}#${i}`));

  /**
   * What a failed operation means: a concurrent twin with the same key won (replay its result),
   * or the user does not exist; anything else is rethrown. The twin wins on the unique index, or
   * first by taking the balance this one needed: then this one is refused (e.g. two debits of the
   * whole balance: INSUFFICIENT_BALANCE) though the twin's result is its answer. So with a key,
   * whatever the error, its entries are looked up.
   */
  async function recover<T>(err: unknown, opts: OperateOptions<T>, base: LedgerRepository): Promise<T> {
    const existing = await base.findEntriesByKeys(opts.userId, keysOf(opts.key, opts.entryCount));
    if (existing.length > 0) return opts.replay(existing, base);
    if (pgErrorCode(err) === '23503') throw new AppError('USER_NOT_FOUND');
    throw err;
  }

  /**
   * Runs one operation: replays it if its idempotency key was already used, else runs `run` in
   * a transaction (a savepoint inside `tx`). A concurrent twin with the same key loses on the
   * unique index, rolls back, and replays the winner's result.
   */
  async function operate<T>(
    opts: OperateOptions<T> & { run: (repo: LedgerRepository, keys: string[]) => Promise<T> },
  ): Promise<T> {
    const base = opts.tx ? deps.repo.withTx(opts.tx) : deps.repo;
    const keys = keysOf(opts.key, opts.entryCount);
    // A retry is answered before anything is tried (no query without a key). This only saves
    // work: the run would write the keys' entries again, fail on their unique index (or be
    // refused first), and recover would replay the same entries.
    const existing = await base.findEntriesByKeys(opts.userId, keys);
    // Stryker disable next-line ConditionalExpression: equivalent when false, the lookup only saves work (above)
    if (existing.length > 0) return opts.replay(existing, base);
    try {
      return await base.transaction((tx) => opts.run(tx, keys));
    } catch (err) {
      return recover(err, opts, base);
    }
  }

  /**
   * Like `operate`, for an operation that is ONE statement (atomic by itself, so no BEGIN and
   * COMMIT round trips) and looks its idempotency keys up itself: `run` answers the entries the
   * keys already held (nothing written) or its result. Inside a caller's `tx` it still runs in a
   * savepoint, so a lost race on the key does not abort the caller's transaction.
   */
  async function operateInOneStatement<T>(
    opts: OperateOptions<T> & {
      run: (repo: LedgerRepository, keys: string[]) => Promise<{ existing: LedgerEntryRow[] } | { done: T }>;
    },
  ): Promise<T> {
    const base = opts.tx ? deps.repo.withTx(opts.tx) : deps.repo;
    const keys = keysOf(opts.key, opts.entryCount);
    try {
      const outcome = opts.tx ? await base.transaction((tx) => opts.run(tx, keys)) : await opts.run(base, keys);
      return 'done' in outcome ? outcome.done : await opts.replay(outcome.existing, base);
    } catch (err) {
      return recover(err, opts, base);
    }
  }

  function entry(input: NewEntryInput): NewLedgerEntry {
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

  return { operate, operateInOneStatement, entry };
}

export type LedgerCore = ReturnType<typeof createLedgerCore>;

export const balanceOf = (e: LedgerEntryRow): BalanceAmounts => ({
  available: e.balanceAfter,
  reserved: e.reservedAfter,
});

/**
 * What defines an operation, as its first entry recorded it. A field left undefined is not
 * compared (e.g. a reference the server generates per call); `null` must match an absent value.
 */
export type OperationIdentity = {
  type: CreditType;
  kind: LedgerEntryKind;
  /** The signed change of `available`. */
  amount: number;
  reservedDelta?: number;
  reference?: Reference | null;
  actorUserId?: string | null;
  reason?: string | null;
};

/**
 * The entry an idempotency key found, if it records the same operation; else 409
 * IDEMPOTENCY_KEY_REUSED. Keys are per user, so the user always matches. Replaying a different
 * operation's result would tell the caller something happened that did not (e.g. answer
 * campaign A's capture to campaign B), so every parameter that defines it is compared.
 */
export function sameOperation(e: LedgerEntryRow | undefined, expected: OperationIdentity): LedgerEntryRow {
  const differs =
    !e ||
    e.type !== expected.type ||
    e.kind !== expected.kind ||
    e.amount !== expected.amount ||
    (expected.reservedDelta !== undefined && e.reservedDelta !== expected.reservedDelta) ||
    (expected.reference !== undefined &&
      (e.referenceType !== (expected.reference?.type ?? null) || e.referenceId !== (expected.reference?.id ?? null))) ||
    (expected.actorUserId !== undefined && e.actorUserId !== expected.actorUserId) ||
    (expected.reason !== undefined && e.reason !== expected.reason);
  if (differs) throw new AppError('IDEMPOTENCY_KEY_REUSED');
  return e;
}

export function assertPositiveInteger(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount <= 0) {
    throw new AppError('INVALID_AMOUNT');
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
