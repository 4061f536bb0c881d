import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKind } from '../../../test/server.test-support.ts';
import type { DbHandle } from '../../platform/db/client.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import type { LedgerService } from './ledger.service.ts';
import { insertTestUser, openLedgerTestDb, type TestPrices } from './ledger.test-support.ts';

/**
 * A transfer's answer, its entries and its retries in detail, and which refusal a failed
 * transfer gets (ledger.transfers.test.ts holds the cost rule and the concurrency).
 */

let handle: DbHandle;
let ledger: LedgerService;

beforeAll(async () => {
  ({ handle, ledger } = await openLedgerTestDb());
});
afterAll(() => handle?.close());

async function userWithMoney(centavos: number, prices: TestPrices) {
  const user = await insertTestUser(handle.db, prices);
  await ledger.credit({ userId: user.id, type: 'BALANCE', amount: centavos, kind: 'ADMIN_ADJUSTMENT' });
  return user;
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => new Error('expected an error, but it succeeded'),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe(`a transfer in detail (${dbKind})`, () => {
  it('writes the actor, the reason and the transfer as reference on both entries', async () => {
    const user = await userWithMoney(10_00, { priceUra: 2_500 }); // R$ 0,25 each
    const admin = await insertTestUser(handle.db, { accessLevel: 'ADMINISTRATOR' });
    const r = await ledger.transfer({
      userId: user.id,
      type: 'URA',
      quantity: 6,
      actorUserId: admin.id,
      reason: 'Pedido por telefone',
    });
    expect(r).toMatchObject({ type: 'URA', quantity: 6, unitPrice: 2_500, costCentavos: 1_50, replayed: false });
    expect(r.entries.map((e) => [e.kind, e.type, e.amount, e.balanceAfter, e.reservedAfter])).toEqual([
      ['TRANSFER_OUT', 'BALANCE', -1_50, 8_50, 0],
      ['TRANSFER_IN', 'URA', 6, 6, 0],
    ]);
    for (const e of r.entries) {
      expect(e).toMatchObject({
        userId: user.id,
        referenceType: 'transfer',
        referenceId: r.transferId,
        actorUserId: admin.id,
        reason: 'Pedido por telefone',
        idempotencyKey: null,
      });
    }
    // Without them: null, not undefined or anything else.
    const plain = await ledger.transfer({ userId: user.id, type: 'URA', quantity: 1 });
    for (const e of plain.entries) expect(e).toMatchObject({ actorUserId: null, reason: null });
    expect(plain.transferId).not.toBe(r.transferId);
  });

  it('a retry answers exactly the first transfer: its id, price, cost, balances and entries', async () => {
    const user = await userWithMoney(20_00, { priceSmsFlash: 1_234 });
    const admin = await insertTestUser(handle.db, { accessLevel: 'ADMINISTRATOR' });
    const input = {
      userId: user.id,
      type: 'SMSFLASH' as const,
      quantity: 7,
      actorUserId: admin.id,
      idempotencyKey: 'detail-retry',
    };
    const first = await ledger.transfer(input);
    expect(first.entries.map((e) => e.idempotencyKey)).toEqual(['detail-retry', 'detail-retry#1']);
    await ledger.transfer({ userId: user.id, type: 'SMSFLASH', quantity: 1 }); // balances move on
    const again = await ledger.transfer(input);
    expect(again).toEqual({ ...first, replayed: true });
    expect(again.costCentavos).toBe(87); // 7 × 12,34 = 86,38 → 87
  });

  it('the same key for another type, quantity or actor is IDEMPOTENCY_KEY_REUSED, and nothing moves', async () => {
    const user = await userWithMoney(50_00, { priceRcs: 10_000, priceUra: 10_000 });
    const admin = await insertTestUser(handle.db, { accessLevel: 'ADMINISTRATOR' });
    const input = { userId: user.id, type: 'RCS' as const, quantity: 2, idempotencyKey: 'detail-reuse' };
    await ledger.transfer(input);
    for (const other of [{ type: 'URA' as const }, { quantity: 3 }, { actorUserId: admin.id }]) {
      expect((await refusal(ledger.transfer({ ...input, ...other }))).code).toBe('IDEMPOTENCY_KEY_REUSED');
    }
    // The first had no actor: a retry by an administrator is another transfer, and so is the reverse.
    await ledger.transfer({ ...input, idempotencyKey: 'detail-admin', actorUserId: admin.id });
    expect((await refusal(ledger.transfer({ ...input, idempotencyKey: 'detail-admin' }))).code).toBe(
      'IDEMPOTENCY_KEY_REUSED',
    );
    expect(await ledger.getMoneyBalanceCentavos(user.id)).toBe(46_00);
  });

  it('a key that is another transfer’s second key (its TRANSFER_IN) is refused, not taken for a transfer', async () => {
    const user = await userWithMoney(50_00, { priceRcs: 10_000 });
    await ledger.transfer({ userId: user.id, type: 'RCS', quantity: 2, idempotencyKey: 'k' }); // keys k and k#1
    const err = await refusal(ledger.transfer({ userId: user.id, type: 'RCS', quantity: 2, idempotencyKey: 'k#1' }));
    expect(err.code).toBe('IDEMPOTENCY_KEY_REUSED');
    // A key used by something that is not a transfer is refused too.
    await ledger.credit({ userId: user.id, type: 'RCS', amount: 2, kind: 'ADMIN_ADJUSTMENT', idempotencyKey: 'c' });
    expect(
      (await refusal(ledger.transfer({ userId: user.id, type: 'RCS', quantity: 2, idempotencyKey: 'c' }))).code,
    ).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await ledger.getMoneyBalanceCentavos(user.id)).toBe(48_00);
  });

  it('refusals in the spec’s order: the price, then the WhatsApp minimum, then the balance', async () => {
    const noPrice = await userWithMoney(5000_00, { priceSmsShort: 100 });
    const err = await refusal(ledger.transfer({ userId: noPrice.id, type: 'WHATSAPP', quantity: 1 }));
    expect([err.code, err.details]).toEqual(['PRICE_NOT_CONFIGURED', { type: 'WHATSAPP' }]);

    // R$ 2.500 and 1000 WhatsApp credits at R$ 10 each: 2500 + 1000 ≥ 3000, the minimum is met,
    // but R$ 10.000 is more than the balance.
    const rich = await userWithMoney(2500_00, { priceWhatsapp: 100_000 });
    expect((await refusal(ledger.transfer({ userId: rich.id, type: 'WHATSAPP', quantity: 1000 }))).code).toBe(
      'INVALID_QUANTITY',
    );
    // 2500 + 499 < 3000: the minimum first, though the balance would not hold it either.
    expect((await refusal(ledger.transfer({ userId: rich.id, type: 'WHATSAPP', quantity: 499 }))).code).toBe(
      'WHATSAPP_MINIMUM',
    );
    // 2500 + 500 = 3000 and R$ 5.000 > R$ 2.500: the balance.
    expect((await refusal(ledger.transfer({ userId: rich.id, type: 'WHATSAPP', quantity: 500 }))).code).toBe(
      'INVALID_QUANTITY',
    );
    expect((await refusal(ledger.transfer({ userId: crypto.randomUUID(), type: 'WHATSAPP', quantity: 1 }))).code).toBe(
      'USER_NOT_FOUND',
    );
    expect(await ledger.getMoneyBalanceCentavos(rich.id)).toBe(2500_00);
  });
});
