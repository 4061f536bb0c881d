import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKind } from '../../../test/server.test-support.ts';
import type { DbHandle } from '../../platform/db/client.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import type { LedgerService } from './ledger.service.ts';
import { insertTestUser, openLedgerTestDb } from './ledger.test-support.ts';

let handle: DbHandle;
let ledger: LedgerService;

beforeAll(async () => {
  ({ handle, ledger } = await openLedgerTestDb());
});
afterAll(() => handle?.close());

const newUser = () => insertTestUser(handle.db);

async function expectKeyReused(promise: Promise<unknown>) {
  const err = await promise.then(
    () => new Error('expected 409 IDEMPOTENCY_KEY_REUSED, but it was applied or replayed'),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  expect(err).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', status: 409 });
}

async function expectReconciled(userId: string) {
  expect((await ledger.reconcile(userId)).mismatches).toEqual([]);
}

const campaign = (id: string) => ({ type: 'campaign', id });

/**
 * ADR 002: "the same key with different parameters is 409 IDEMPOTENCY_KEY_REUSED". Every
 * parameter that defines the operation counts, not only its type, kind and amount: a replay
 * answers the first operation's result, so answering it to a different operation would tell
 * the caller that something happened which did not (e.g. another campaign's capture).
 */
describe(`idempotency keys compare the whole operation (${dbKind})`, () => {
  it('a capture for another campaign with the same key and amount is refused, not replayed', async () => {
    const user = await newUser();
    await ledger.credit({ userId: user.id, type: 'SMSSHORT', amount: 100, kind: 'ADMIN_ADJUSTMENT' });
    await ledger.reserve({ userId: user.id, type: 'SMSSHORT', amount: 40, reference: campaign('a') });
    await ledger.reserve({ userId: user.id, type: 'SMSSHORT', amount: 40, reference: campaign('b') });
    const capture = (id: string) =>
      ledger.capture({
        userId: user.id,
        type: 'SMSSHORT',
        amount: 10,
        reference: campaign(id),
        idempotencyKey: 'batch-1',
      });
    const first = await capture('a');
    expect((await capture('a')).entry.id).toBe(first.entry.id);
    await expectKeyReused(capture('b'));
    // Campaign b still holds all it reserved: nothing was captured for it.
    expect(await ledger.outstandingReservation(user.id, 'SMSSHORT', campaign('b'))).toBe(40);
    await expectReconciled(user.id);
  });

  it('reserve and release check the reference too', async () => {
    const user = await newUser();
    await ledger.credit({ userId: user.id, type: 'URA', amount: 100, kind: 'ADMIN_ADJUSTMENT' });
    const reserve = (id: string) =>
      ledger.reserve({ userId: user.id, type: 'URA', amount: 30, reference: campaign(id), idempotencyKey: 'r' });
    await reserve('a');
    await expectKeyReused(reserve('b'));
    await ledger.reserve({ userId: user.id, type: 'URA', amount: 30, reference: campaign('b') });
    const release = (id: string) =>
      ledger.release({ userId: user.id, type: 'URA', amount: 5, reference: campaign(id), idempotencyKey: 'rel' });
    await release('a');
    await expectKeyReused(release('b'));
    expect(await ledger.outstandingReservation(user.id, 'URA', campaign('b'))).toBe(30);
    await expectReconciled(user.id);
  });

  it('credit and debit check the reference and the actor', async () => {
    const user = await newUser();
    const [adminA, adminB] = [await newUser(), await newUser()];
    const base = { userId: user.id, type: 'RCS' as const, amount: 5, kind: 'ADMIN_ADJUSTMENT' as const };
    await ledger.credit({ ...base, reference: { type: 'order', id: '1' }, idempotencyKey: 'c' });
    await expectKeyReused(ledger.credit({ ...base, reference: { type: 'order', id: '2' }, idempotencyKey: 'c' }));
    await expectKeyReused(ledger.credit({ ...base, idempotencyKey: 'c' }));
    await ledger.credit({ ...base, actorUserId: adminA.id, idempotencyKey: 'd' });
    await expectKeyReused(ledger.credit({ ...base, actorUserId: adminB.id, idempotencyKey: 'd' }));
    expect((await ledger.getBalances(user.id)).RCS.available).toBe(10);
    await expectReconciled(user.id);
  });

  it('an adjustment with the same key but another reason or administrator is refused', async () => {
    const user = await newUser();
    const [adminA, adminB] = [await newUser(), await newUser()];
    const input = { userId: user.id, type: 'SMSFLASH' as const, amount: 7, reason: 'cortesia', idempotencyKey: 'adj' };
    const first = await ledger.adjust({ ...input, actorUserId: adminA.id });
    const again = await ledger.adjust({ ...input, actorUserId: adminA.id });
    expect(again).toMatchObject({ replayed: true, entry: { id: first.entry.id } });
    await expectKeyReused(ledger.adjust({ ...input, actorUserId: adminA.id, reason: 'bônus de campanha' }));
    await expectKeyReused(ledger.adjust({ ...input, actorUserId: adminB.id }));
    expect((await ledger.getBalances(user.id)).SMSFLASH.available).toBe(7);
    await expectReconciled(user.id);
  });

  it('a manual payment with the same key but another method, reason or administrator is refused', async () => {
    const user = await newUser();
    const [adminA, adminB] = [await newUser(), await newUser()];
    const input = {
      userId: user.id,
      amountCentavos: 500_00,
      method: 'PIX' as const,
      reason: 'PIX de 10/03',
      actorUserId: adminA.id,
      idempotencyKey: 'pay',
    };
    const first = await ledger.recordManualPayment(input);
    expect((await ledger.recordManualPayment(input)).payment.id).toBe(first.payment.id);
    await expectKeyReused(ledger.recordManualPayment({ ...input, method: 'MANUAL' }));
    await expectKeyReused(ledger.recordManualPayment({ ...input, reason: 'PIX de 11/03' }));
    await expectKeyReused(ledger.recordManualPayment({ ...input, actorUserId: adminB.id }));
    expect(await ledger.getMoneyBalanceCentavos(user.id)).toBe(500_00);
    await expectReconciled(user.id);
  });

  it('a transfer with the same key but another credit type or quantity is refused', async () => {
    const user = await insertTestUser(handle.db, { priceSmsShort: 100, priceUra: 100 });
    await ledger.credit({ userId: user.id, type: 'BALANCE', amount: 10_00, kind: 'ADMIN_ADJUSTMENT' });
    const transfer = (type: 'SMSSHORT' | 'URA', quantity: number) =>
      ledger.transfer({ userId: user.id, type, quantity, idempotencyKey: 't' });
    await transfer('SMSSHORT', 10);
    expect((await transfer('SMSSHORT', 10)).replayed).toBe(true);
    await expectKeyReused(transfer('URA', 10));
    await expectKeyReused(transfer('SMSSHORT', 11));
    expect(await ledger.getMoneyBalanceCentavos(user.id)).toBe(9_90);
    await expectReconciled(user.id);
  });
});
