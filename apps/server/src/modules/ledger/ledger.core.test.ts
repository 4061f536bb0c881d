import { describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors/app-error.ts';
import { assertPositiveInteger, pgErrorCode, sameOperation } from './ledger.core.ts';
import type { LedgerEntryRow } from './ledger.schema.ts';

/** The ledger's pure rules: its errors (code, status, message, details), replay matching, driver errors. */
describe('ledger core rules', () => {
  const thrown = (fn: () => unknown) => {
    try {
      fn();
    } catch (err) {
      return err as AppError;
    }
    throw new Error('did not throw');
  };

  it('names each refusal with its code, status, message and details', () => {
    expect(new AppError('PRICE_NOT_CONFIGURED', { type: 'SMSSHORT' })).toMatchObject({
      code: 'PRICE_NOT_CONFIGURED',
      status: 400,
      details: { type: 'SMSSHORT' },
    });
    expect(new AppError('INSUFFICIENT_BALANCE', { type: 'BALANCE', available: 5, requested: 9 })).toMatchObject({
      code: 'INSUFFICIENT_BALANCE',
      message: 'Saldo insuficiente.',
      details: { type: 'BALANCE', available: 5, requested: 9 },
    });
    expect(new AppError('INSUFFICIENT_BALANCE', { type: 'SMSSHORT', available: 1, requested: 2 }).message).toBe(
      'Créditos insuficientes.',
    );
    expect(new AppError('RESERVATION_EXCEEDED', { outstanding: 3 })).toMatchObject({
      code: 'RESERVATION_EXCEEDED',
      status: 409,
      message: 'Valor acima do que está reservado para esta referência.',
      details: { outstanding: 3 },
    });
    expect(new AppError('PAYMENT_NOT_FOUND')).toMatchObject({
      code: 'PAYMENT_NOT_FOUND',
      status: 404,
      message: 'Pagamento não encontrado.',
    });
  });

  it('takes only whole positive amounts', () => {
    expect(() => assertPositiveInteger(1)).not.toThrow();
    for (const bad of [0, -1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1]) {
      expect(thrown(() => assertPositiveInteger(bad))).toMatchObject({
        code: 'INVALID_AMOUNT',
        status: 400,
        message: 'O valor deve ser um número inteiro maior que zero.',
      });
    }
  });

  it('replays an entry only for the very same operation', () => {
    const entry = {
      type: 'SMSSHORT',
      kind: 'CAPTURE',
      amount: 0,
      reservedDelta: -3,
      referenceType: 'campaign',
      referenceId: 'c-1',
      actorUserId: null,
      reason: null,
    } as unknown as LedgerEntryRow;
    const same = {
      type: 'SMSSHORT',
      kind: 'CAPTURE',
      amount: 0,
      reservedDelta: -3,
      reference: { type: 'campaign', id: 'c-1' },
      actorUserId: null,
      reason: null,
    } as const;
    expect(sameOperation(entry, same)).toBe(entry);
    // Fields the caller does not state are not compared.
    expect(sameOperation(entry, { type: 'SMSSHORT', kind: 'CAPTURE', amount: 0 })).toBe(entry);
    for (const differs of [
      { type: 'SMSFLASH' },
      { kind: 'RELEASE' },
      { amount: 1 },
      { reservedDelta: -4 },
      { reference: { type: 'message', id: 'c-1' } },
      { reference: { type: 'campaign', id: 'c-2' } },
      { reference: null },
      { actorUserId: 'u-9' },
      { reason: 'outro' },
    ] as const) {
      expect(
        thrown(() => sameOperation(entry, { ...same, ...differs })),
        JSON.stringify(differs),
      ).toMatchObject({
        code: 'IDEMPOTENCY_KEY_REUSED',
        status: 409,
      });
    }
    expect(thrown(() => sameOperation(undefined, same)).code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('reads the SQLSTATE of a driver error, through drizzle’s causes, for a given constraint', () => {
    const unique = { code: '23505', constraint: 'ledger_entries_user_idempotency_key', message: 'duplicate key' };
    expect(pgErrorCode(unique)).toBe('23505');
    expect(pgErrorCode(unique, 'ledger_entries_user_idempotency_key')).toBe('23505');
    expect(pgErrorCode(unique, 'another_constraint')).toBeUndefined();
    // PGlite names the constraint in the message only.
    const pglite = { code: '23505', message: 'violates unique constraint "ledger_entries_user_idempotency_key"' };
    expect(pgErrorCode(pglite, 'ledger_entries_user_idempotency_key')).toBe('23505');
    expect(pgErrorCode({ code: '23505', message: 42 }, 'ledger_entries_user_idempotency_key')).toBeUndefined();
    // Wrapped: drizzle's error → the driver's.
    expect(pgErrorCode({ message: 'Failed query', cause: { cause: unique } })).toBe('23505');
    // Not SQLSTATEs: Node's and lowercase or longer codes are skipped for the cause.
    expect(pgErrorCode({ code: 'ECONNRESET', cause: unique })).toBe('23505');
    expect(pgErrorCode({ code: 'x23505', cause: { code: '40001' } })).toBe('40001');
    expect(pgErrorCode({ code: '23505x', cause: { code: '40001' } })).toBe('40001');
    expect(pgErrorCode({ code: 23505 })).toBeUndefined();
    // At most five levels deep: a cycle ends.
    const cycle: { cause?: unknown } = {};
    cycle.cause = cycle;
    expect(pgErrorCode(cycle)).toBeUndefined();
    let deep: unknown = unique;
    for (let i = 0; i < 4; i++) deep = { cause: deep };
    expect(pgErrorCode(deep)).toBe('23505');
    expect(pgErrorCode({ cause: deep })).toBeUndefined();
    expect(pgErrorCode(undefined)).toBeUndefined();
  });
});
