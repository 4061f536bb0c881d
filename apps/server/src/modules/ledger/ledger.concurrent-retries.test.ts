import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKind } from '../../../test/server.test-support.ts';
import type { DbHandle } from '../../platform/db/client.ts';
import type { LedgerService } from './ledger.service.ts';
import { insertTestUser, openLedgerTestDb } from './ledger.test-support.ts';

/**
 * Retries of one request (one idempotency key) sent together, when the request takes the whole
 * balance: the first to write wins, and the others, refused for want of money the winner took,
 * must still answer the winner's result, not "insufficient balance" for a request that succeeded.
 */

let handle: DbHandle;
let ledger: LedgerService;

beforeAll(async () => {
  ({ handle, ledger } = await openLedgerTestDb());
});
afterAll(() => handle?.close());

describe(`concurrent retries of a request that takes the whole balance (${dbKind})`, () => {
  it('a debit: every retry answers the one debit', async () => {
    const user = await insertTestUser(handle.db);
    await ledger.credit({ userId: user.id, type: 'SMSSHORT', amount: 500, kind: 'ADMIN_ADJUSTMENT' });
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        ledger.debit({
          userId: user.id,
          type: 'SMSSHORT',
          amount: 500,
          kind: 'ENRICHMENT_CHARGE',
          idempotencyKey: 'whole-debit',
        }),
      ),
    );
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    expect(new Set(results.map((r) => r.entry.id)).size).toBe(1);
    for (const r of results) expect(r.balance).toEqual({ available: 0, reserved: 0 });
    expect((await ledger.getBalances(user.id)).SMSSHORT.available).toBe(0);
    expect((await ledger.reconcile(user.id)).mismatches).toEqual([]);
  });

  it('a transfer: every retry answers the one transfer', async () => {
    const user = await insertTestUser(handle.db, { priceUra: 10_000 }); // R$ 1,00 each
    await ledger.credit({ userId: user.id, type: 'BALANCE', amount: 5_00, kind: 'ADMIN_ADJUSTMENT' });
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        ledger.transfer({ userId: user.id, type: 'URA', quantity: 5, idempotencyKey: 'whole-transfer' }),
      ),
    );
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    expect(new Set(results.map((r) => r.transferId)).size).toBe(1);
    for (const r of results) expect([r.money.available, r.credits.available]).toEqual([0, 5]);
    expect(await ledger.getMoneyBalanceCentavos(user.id)).toBe(0);
    expect((await ledger.reconcile(user.id)).mismatches).toEqual([]);
  });

  it('a refusal that no twin explains is still a refusal', async () => {
    const user = await insertTestUser(handle.db);
    await ledger.credit({ userId: user.id, type: 'SMSSHORT', amount: 10, kind: 'ADMIN_ADJUSTMENT' });
    const debit = ledger.debit({
      userId: user.id,
      type: 'SMSSHORT',
      amount: 11,
      kind: 'ENRICHMENT_CHARGE',
      idempotencyKey: 'too-much',
    });
    await expect(debit).rejects.toMatchObject({ code: 'INSUFFICIENT_BALANCE' });
  });
});
