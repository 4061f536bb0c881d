import crypto from 'node:crypto';
import { costCentavos } from '@ecoa/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKind } from '../../../test/server.test-support.ts';
import type { DbHandle } from '../../platform/db/client.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import type { LedgerService } from './ledger.service.ts';
import { insertTestUser, openLedgerTestDb, type TestPrices } from './ledger.test-support.ts';

/**
 * The transfer is one SQL statement (ledger.transfers.repository.ts) that computes the cost
 * itself: these hold it to the shared rule and to the ledger's exactness under concurrency.
 */

let handle: DbHandle;
let ledger: LedgerService;

beforeAll(async () => {
  ({ handle, ledger } = await openLedgerTestDb());
});
afterAll(() => handle?.close());

async function userWithMoney(centavos: number, prices: TestPrices) {
  const user = await insertTestUser(handle.db, prices);
  if (centavos > 0) {
    await ledger.credit({ userId: user.id, type: 'BALANCE', amount: centavos, kind: 'ADMIN_ADJUSTMENT' });
  }
  return user;
}

async function errorCode(promise: Promise<unknown>): Promise<string> {
  const err = await promise.then(
    () => new Error('expected an error, but it succeeded'),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return (err as AppError).code;
}

async function expectReconciled(userId: string) {
  expect((await ledger.reconcile(userId)).mismatches).toEqual([]);
}

describe(`ledger transfers in one statement (${dbKind})`, () => {
  it('charges exactly costCentavos (rounded up) for every quantity and price, up to the safe integer range', async () => {
    const cases: [quantity: number, price: number][] = [
      [1, 1],
      [1, 99],
      [1, 100],
      [1, 101],
      [3, 3333],
      [7, 1234],
      [123_457, 3333],
      [2 ** 40, 7],
      [Number.MAX_SAFE_INTEGER, 1], // q × p is not exact as a double: the rule must be exact
      [Number.MAX_SAFE_INTEGER - 1, 3],
    ];
    for (const [quantity, price] of cases) {
      const funds = 10 ** 15;
      const user = await userWithMoney(funds, { priceSmsShort: price });
      const r = await ledger.transfer({ userId: user.id, type: 'SMSSHORT', quantity });
      const expected = costCentavos(quantity, price);
      expect([quantity, price, r.costCentavos]).toEqual([quantity, price, expected]);
      expect(r).toMatchObject({ unitPrice: price, replayed: false, credits: { available: quantity, reserved: 0 } });
      expect(r.money.available).toBe(funds - expected);
      expect(r.entries[0]!.metadata).toEqual({
        creditType: 'SMSSHORT',
        quantity,
        unitPrice: price,
        costCentavos: expected,
      });
      await expectReconciled(user.id);
    }
  });

  it('a cost beyond what any balance can hold is Quantidade inválida, not an overflow', async () => {
    const user = await userWithMoney(10 ** 15, { priceSmsShort: 10 ** 12 });
    const quantity = Number.MAX_SAFE_INTEGER; // cost ≈ 9 × 10^25 centavos: more than a bigint
    expect(await errorCode(ledger.transfer({ userId: user.id, type: 'SMSSHORT', quantity }))).toBe('INVALID_QUANTITY');
    expect(await ledger.getMoneyBalanceCentavos(user.id)).toBe(10 ** 15);
    await expectReconciled(user.id);
  });

  it('an unknown user is USER_NOT_FOUND and writes nothing', async () => {
    const code = await errorCode(ledger.transfer({ userId: crypto.randomUUID(), type: 'SMSSHORT', quantity: 1 }));
    expect(code).toBe('USER_NOT_FOUND');
  });

  it('20 concurrent transfers with one key apply once and all answer the same transfer', async () => {
    const user = await userWithMoney(100_00, { priceUra: 10000 }); // R$ 1,00 each
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        ledger.transfer({ userId: user.id, type: 'URA', quantity: 5, idempotencyKey: 'transfer:burst' }),
      ),
    );
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    expect(new Set(results.map((r) => r.transferId)).size).toBe(1);
    for (const r of results)
      expect(r).toMatchObject({ costCentavos: 5_00, unitPrice: 10000, money: results[0]!.money });
    expect(await ledger.getMoneyBalanceCentavos(user.id)).toBe(95_00);
    await expectReconciled(user.id);
  });

  it('50 accounts, 15 transfers each in parallel, money for 10: exactly 10 each, entries = balances', async () => {
    const accounts = await Promise.all(Array.from({ length: 50 }, () => userWithMoney(10 * 87, { priceUra: 1234 })));
    // 7 × R$ 0,1234 = R$ 0,8638 → 87 centavos each
    const outcomes = await Promise.allSettled(
      Array.from({ length: 15 * accounts.length }, (_, i) =>
        ledger.transfer({ userId: accounts[i % accounts.length]!.id, type: 'URA', quantity: 7 }),
      ),
    );
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(refused).toHaveLength(5 * accounts.length);
    for (const r of refused) expect((r.reason as AppError).code).toBe('INVALID_QUANTITY');
    for (const account of accounts) {
      const balances = await ledger.getBalances(account.id);
      expect([balances.BALANCE.available, balances.URA.available]).toEqual([0, 70]);
      await expectReconciled(account.id);
    }
  });

  it('inside a caller’s transaction: rolls back with it, and a refusal does not abort it', async () => {
    const user = await userWithMoney(10_00, { priceRcs: 10000 });
    await expect(
      handle.db.transaction(async (tx) => {
        await ledger.transfer({ userId: user.id, type: 'RCS', quantity: 3, tx });
        throw new Error('the caller gives up');
      }),
    ).rejects.toThrow('the caller gives up');
    expect(await ledger.getMoneyBalanceCentavos(user.id)).toBe(10_00);

    const done = await handle.db.transaction(async (tx) => {
      const code = await errorCode(ledger.transfer({ userId: user.id, type: 'RCS', quantity: 11, tx }));
      expect(code).toBe('INVALID_QUANTITY');
      const first = await ledger.transfer({ userId: user.id, type: 'RCS', quantity: 4, tx, idempotencyKey: 'in-tx' });
      const again = await ledger.transfer({ userId: user.id, type: 'RCS', quantity: 4, tx, idempotencyKey: 'in-tx' });
      await tx.execute(sql`select 1`); // the transaction is still usable
      return { first, again };
    });
    expect(done.again).toMatchObject({ replayed: true, transferId: done.first.transferId });
    expect(await ledger.getMoneyBalanceCentavos(user.id)).toBe(6_00);
    await expectReconciled(user.id);
  });
});
