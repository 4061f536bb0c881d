import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKind } from '../../../test/server.test-support.ts';
import type { DbHandle } from '../../platform/db/client.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import type { LedgerService } from './ledger.service.ts';
import { insertTestUser, openLedgerTestDb } from './ledger.test-support.ts';

/**
 * The payments' details beside the order of events (ledger.payments.test.ts): what each
 * operation writes on the payment and its entry, the refusals, and the edges of the refund rules.
 */

let handle: DbHandle;
let ledger: LedgerService;

beforeAll(async () => {
  ({ handle, ledger } = await openLedgerTestDb());
});
afterAll(() => handle?.close());

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

async function balanceEntries(userId: string) {
  return (await ledger.listEntries(userId, { page: 1, pageSize: 50, type: 'BALANCE' })).items;
}

async function card(centavos: number, userId?: string) {
  const id = userId ?? (await insertTestUser(handle.db)).id;
  const payment = await ledger.createPendingPayment({
    userId: id,
    amountCentavos: centavos,
    method: 'CARD',
    provider: 'STRIPE',
  });
  return { userId: id, payment };
}

describe(`manual payments (${dbKind})`, () => {
  it('without a key: the entry is keyed by the payment, carries method and provider, and a second call is another payment', async () => {
    const user = await insertTestUser(handle.db);
    const admin = await insertTestUser(handle.db, { accessLevel: 'ADMINISTRATOR' });
    const input = {
      userId: user.id,
      amountCentavos: 1_500,
      method: 'MANUAL' as const,
      actorUserId: admin.id,
      reason: 'Depósito',
    };
    const first = await ledger.recordManualPayment(input);
    expect(first.replayed).toBe(false);
    expect(first.payment).toMatchObject({
      userId: user.id,
      amountCentavos: 1_500,
      method: 'MANUAL',
      provider: 'MANUAL',
      status: 'SUCCEEDED',
      reason: 'Depósito',
      createdBy: admin.id,
      refundedCentavos: 0,
    });
    expect(first.payment.completedAt).toEqual(first.payment.createdAt);
    expect(first.entry).toMatchObject({
      type: 'BALANCE',
      kind: 'PURCHASE',
      amount: 1_500,
      balanceAfter: 1_500,
      referenceType: 'payment',
      referenceId: first.payment.id,
      actorUserId: admin.id,
      reason: 'Depósito',
      idempotencyKey: `payment:${first.payment.id}`,
      metadata: { method: 'MANUAL', provider: 'MANUAL' },
    });
    const second = await ledger.recordManualPayment(input);
    expect(second.payment.id).not.toBe(first.payment.id);
    expect(second.entry).toMatchObject({ balanceAfter: 3_000, idempotencyKey: `payment:${second.payment.id}` });
    expect(await ledger.getMoneyBalanceCentavos(user.id)).toBe(3_000);
    await expectReconciled(user.id);
  });

  it('a retry answers the first payment and entry; the same key for another method, amount or reason is refused', async () => {
    const user = await insertTestUser(handle.db);
    const admin = await insertTestUser(handle.db, { accessLevel: 'ADMINISTRATOR' });
    const input = {
      userId: user.id,
      amountCentavos: 800,
      method: 'PIX' as const,
      actorUserId: admin.id,
      reason: 'PIX',
      idempotencyKey: 'manual-retry',
    };
    const first = await ledger.recordManualPayment(input);
    expect(first.entry!.idempotencyKey).toBe('manual-retry');
    const again = await ledger.recordManualPayment(input);
    expect(again).toEqual({ payment: first.payment, entry: first.entry, replayed: true });
    for (const other of [{ method: 'MANUAL' as const }, { amountCentavos: 801 }, { reason: 'Outro' }]) {
      expect(await errorCode(ledger.recordManualPayment({ ...input, ...other }))).toBe('IDEMPOTENCY_KEY_REUSED');
    }
    expect(await ledger.getMoneyBalanceCentavos(user.id)).toBe(800);
    expect((await ledger.listPayments(user.id, { page: 1, pageSize: 10 })).total).toBe(1);
  });

  it.each([
    { why: 'names a payment that does not exist', reference: () => ({ type: 'payment', id: crypto.randomUUID() }) },
    // Looked up as '' before: PostgreSQL's uuid cast failed and the retry got a 500.
    { why: 'names no payment at all', reference: () => undefined },
  ])('a key already used by an entry that $why is refused, not answered with a payment', async ({ reference }) => {
    const user = await insertTestUser(handle.db);
    const admin = await insertTestUser(handle.db, { accessLevel: 'ADMINISTRATOR' });
    // A PURCHASE entry with this key, the same amount, actor and reason, but no payment behind it.
    await ledger.credit({
      userId: user.id,
      type: 'BALANCE',
      amount: 700,
      kind: 'PURCHASE',
      reference: reference(),
      actorUserId: admin.id,
      reason: 'PIX',
      idempotencyKey: 'orphan',
    });
    const code = await errorCode(
      ledger.recordManualPayment({
        userId: user.id,
        amountCentavos: 700,
        method: 'PIX',
        actorUserId: admin.id,
        reason: 'PIX',
        idempotencyKey: 'orphan',
      }),
    );
    expect(code).toBe('PAYMENT_NOT_FOUND');
  });

  it('an unknown user is USER_NOT_FOUND, a non-positive amount is refused, and nothing is written', async () => {
    const admin = await insertTestUser(handle.db, { accessLevel: 'ADMINISTRATOR' });
    const base = { amountCentavos: 100, method: 'PIX' as const, actorUserId: admin.id, reason: 'x' };
    expect(await errorCode(ledger.recordManualPayment({ ...base, userId: crypto.randomUUID() }))).toBe(
      'USER_NOT_FOUND',
    );
    const user = await insertTestUser(handle.db);
    for (const amountCentavos of [0, -5, 1.5]) {
      await expect(ledger.recordManualPayment({ ...base, userId: user.id, amountCentavos })).rejects.toThrow();
      await expect(
        ledger.createPendingPayment({ userId: user.id, amountCentavos, method: 'CARD', provider: 'STRIPE' }),
      ).rejects.toThrow();
    }
    expect((await ledger.listPayments(user.id, { page: 1, pageSize: 10 })).total).toBe(0);
  });
});

describe(`card payments: creation, checkout, flags and lookups (${dbKind})`, () => {
  it('a pending payment keeps what the checkout gave it; attachCheckout and lookups by external ids', async () => {
    const user = await insertTestUser(handle.db);
    const tag = crypto.randomUUID();
    const full = await ledger.createPendingPayment({
      userId: user.id,
      amountCentavos: 5_000,
      method: 'CARD',
      provider: 'STRIPE',
      reason: 'Recarga',
      externalId: `cs_${tag}`,
      successUrl: 'https://ecoa.test/ok',
      cancelUrl: 'https://ecoa.test/cancel',
    });
    expect(full).toMatchObject({
      userId: user.id,
      amountCentavos: 5_000,
      method: 'CARD',
      provider: 'STRIPE',
      status: 'PENDING',
      reason: 'Recarga',
      createdBy: user.id,
      externalId: `cs_${tag}`,
      successUrl: 'https://ecoa.test/ok',
      cancelUrl: 'https://ecoa.test/cancel',
      completedAt: null,
    });
    const bare = await ledger.createPendingPayment({
      userId: user.id,
      amountCentavos: 1,
      method: 'CARD',
      provider: 'STRIPE',
    });
    expect(bare).toMatchObject({
      reason: null,
      externalId: null,
      successUrl: null,
      cancelUrl: null,
      completedAt: null,
    });

    const attached = await ledger.attachCheckout(bare.id, {
      externalId: `cs2_${tag}`,
      checkoutUrl: 'https://checkout.test/pay',
    });
    expect(attached).toMatchObject({ id: bare.id, externalId: `cs2_${tag}`, checkoutUrl: 'https://checkout.test/pay' });
    expect(attached.updatedAt.getTime()).toBeGreaterThanOrEqual(bare.updatedAt.getTime());

    expect((await ledger.findPaymentByExternalId('STRIPE', `cs2_${tag}`))?.id).toBe(bare.id);
    expect(await ledger.findPaymentByExternalId('MANUAL', `cs2_${tag}`)).toBeNull();
    expect(await ledger.findPaymentByExternalId('STRIPE', `nope_${tag}`)).toBeNull();

    await ledger.completePayment(full.id, { externalPaymentId: `pi_${tag}` });
    expect((await ledger.findPaymentByExternalPaymentId('STRIPE', `pi_${tag}`))?.id).toBe(full.id);
    expect(await ledger.findPaymentByExternalPaymentId('MANUAL', `pi_${tag}`)).toBeNull();
    expect(await ledger.findPaymentByExternalPaymentId('STRIPE', `cs_${tag}`)).toBeNull();
  });

  it('flagPayment adds to the metadata without changing the status; an unknown payment is ignored', async () => {
    const { payment } = await card(1_000);
    await ledger.flagPayment(payment.id, { refusedEvent: 'evt_1' });
    expect(await ledger.findPayment(payment.id)).toMatchObject({
      status: 'PENDING',
      metadata: { refusedEvent: 'evt_1' },
    });
    await ledger.flagPayment(payment.id, { other: 2 });
    expect((await ledger.findPayment(payment.id))!.metadata).toEqual({ refusedEvent: 'evt_1', other: 2 });
    await expect(ledger.flagPayment(crypto.randomUUID(), { x: 1 })).resolves.toBeUndefined();
  });

  it('ownPayment: the owner’s own; another user’s or an unknown one is PAYMENT_NOT_FOUND', async () => {
    const { userId, payment } = await card(2_000);
    expect((await ledger.ownPayment(userId, payment.id)).id).toBe(payment.id);
    const other = await insertTestUser(handle.db);
    expect(await errorCode(ledger.ownPayment(other.id, payment.id))).toBe('PAYMENT_NOT_FOUND');
    expect(await errorCode(ledger.ownPayment(userId, crypto.randomUUID()))).toBe('PAYMENT_NOT_FOUND');
    expect(await ledger.findPayment(crypto.randomUUID())).toBeNull();
  });

  it('listPayments pages newest first', async () => {
    const user = await insertTestUser(handle.db);
    const made = [];
    for (const amount of [100, 200, 300]) made.push((await card(amount, user.id)).payment);
    const page1 = await ledger.listPayments(user.id, { page: 1, pageSize: 2 });
    const page2 = await ledger.listPayments(user.id, { page: 2, pageSize: 2 });
    expect([page1.total, page1.page, page1.pageSize]).toEqual([3, 1, 2]);
    expect([page2.total, page2.page, page2.pageSize]).toEqual([3, 2, 2]);
    expect([...page1.items, ...page2.items].map((p) => p.amountCentavos)).toEqual([300, 200, 100]);
  });

  it('unknown payments are PAYMENT_NOT_FOUND for complete, refund and close', async () => {
    const id = crypto.randomUUID();
    expect(await errorCode(ledger.completePayment(id))).toBe('PAYMENT_NOT_FOUND');
    expect(await errorCode(ledger.refundPayment(id, 100))).toBe('PAYMENT_NOT_FOUND');
    expect(await errorCode(ledger.closePendingPayment(id, 'FAILED'))).toBe('PAYMENT_NOT_FOUND');
  });
});

describe(`card payments: completion and refunds in detail (${dbKind})`, () => {
  it('completion writes its status, time and ids once; a duplicate answers the same entry', async () => {
    const { userId, payment } = await card(4_000);
    const tag = crypto.randomUUID();
    const done = await ledger.completePayment(payment.id, { externalPaymentId: `pi_${tag}`, externalId: `cs_${tag}` });
    expect(done.replayed).toBe(false);
    expect(done.payment).toMatchObject({
      status: 'SUCCEEDED',
      externalPaymentId: `pi_${tag}`,
      externalId: `cs_${tag}`,
    });
    expect(done.payment.completedAt).toBeInstanceOf(Date);
    expect(done.entry).toMatchObject({
      kind: 'PURCHASE',
      amount: 4_000,
      actorUserId: null,
      idempotencyKey: `payment:${payment.id}`,
      metadata: { method: 'CARD', provider: 'STRIPE' },
    });
    const again = await ledger.completePayment(payment.id, { externalPaymentId: 'pi_other' });
    expect(again).toEqual({ payment: done.payment, entry: done.entry, replayed: true });
    expect(await ledger.getMoneyBalanceCentavos(userId)).toBe(4_000);

    // A checkout id the payment already has is kept; none given leaves the ids as they are.
    const withId = await ledger.createPendingPayment({
      userId,
      amountCentavos: 10,
      method: 'CARD',
      provider: 'STRIPE',
      externalId: `first_${tag}`,
    });
    const kept = await ledger.completePayment(withId.id, { externalId: `second_${tag}` });
    expect(kept.payment).toMatchObject({ externalId: `first_${tag}`, externalPaymentId: null });
  });

  it('a failed or canceled payment is still credited when the provider says paid', async () => {
    const { userId, payment } = await card(900);
    expect((await ledger.closePendingPayment(payment.id, 'CANCELED')).status).toBe('CANCELED');
    expect((await ledger.closePendingPayment(payment.id, 'FAILED')).status).toBe('CANCELED');
    const done = await ledger.completePayment(payment.id);
    expect(done).toMatchObject({ replayed: false, payment: { status: 'SUCCEEDED' }, entry: { amount: 900 } });
    expect(await ledger.getMoneyBalanceCentavos(userId)).toBe(900);
  });

  it('a refund before the success records what was refunded before the credit in the entry', async () => {
    const { userId, payment } = await card(1_000);
    const early = await ledger.refundPayment(payment.id, 300);
    expect(early).toMatchObject({ entry: null, shortfallCentavos: 0, replayed: false });
    expect(early.payment).toMatchObject({ status: 'PENDING', refundedCentavos: 300 });
    const done = await ledger.completePayment(payment.id);
    expect(done.entry).toMatchObject({
      amount: 700,
      metadata: { method: 'CARD', provider: 'STRIPE', refundedBeforeCreditCentavos: 300 },
    });
    // The same cumulative total again, or a smaller one, changes nothing.
    for (const total of [300, 200]) {
      const stale = await ledger.refundPayment(payment.id, total);
      expect(stale).toMatchObject({ entry: null, shortfallCentavos: 0, replayed: true });
      expect(stale.payment.refundedCentavos).toBe(300);
    }
    expect(await ledger.getMoneyBalanceCentavos(userId)).toBe(700);
    await expectReconciled(userId);
  });

  it('a full refund before the success is REFUNDED, and the success then credits nothing but is applied once', async () => {
    const { userId, payment } = await card(1_000);
    const refunded = await ledger.refundPayment(payment.id, 5_000); // more than paid: capped at the amount
    expect(refunded.payment).toMatchObject({ status: 'REFUNDED', refundedCentavos: 1_000, completedAt: null });
    const done = await ledger.completePayment(payment.id);
    expect(done).toMatchObject({ entry: null, replayed: false, payment: { status: 'REFUNDED' } });
    expect(done.payment.completedAt).toBeInstanceOf(Date);
    const again = await ledger.completePayment(payment.id);
    expect(again).toMatchObject({ entry: null, replayed: true });
    expect(await ledger.getMoneyBalanceCentavos(userId)).toBe(0);
    expect(await balanceEntries(userId)).toEqual([]);
  });

  it('a refund after the credit takes it back with a REFUND entry keyed by the total', async () => {
    const { userId, payment } = await card(1_000);
    await ledger.completePayment(payment.id);
    const partial = await ledger.refundPayment(payment.id, 250);
    expect(partial).toMatchObject({ shortfallCentavos: 0, replayed: false });
    expect(partial.payment).toMatchObject({ status: 'SUCCEEDED', refundedCentavos: 250, refundShortfallCentavos: 0 });
    expect(partial.entry).toMatchObject({
      type: 'BALANCE',
      kind: 'REFUND',
      amount: -250,
      balanceAfter: 750,
      reservedDelta: 0,
      reservedAfter: 0,
      referenceType: 'payment',
      referenceId: payment.id,
      reason: 'Estorno',
      idempotencyKey: `refund:${payment.id}:250`,
      metadata: { refundedCentavos: 250, shortfallCentavos: 0 },
    });
    const rest = await ledger.refundPayment(payment.id, 1_000);
    expect(rest.payment).toMatchObject({ status: 'REFUNDED', refundedCentavos: 1_000 });
    expect(rest.entry).toMatchObject({ amount: -750, balanceAfter: 0, idempotencyKey: `refund:${payment.id}:1000` });
    expect(await ledger.getMoneyBalanceCentavos(userId)).toBe(0);
    await expectReconciled(userId);
  });

  it('refunds beyond the money left: the shortfall adds up over the refunds, and an empty balance writes no entry', async () => {
    const { userId, payment } = await card(1_000);
    await ledger.completePayment(payment.id);
    await ledger.debit({ userId, type: 'BALANCE', amount: 900, kind: 'ENRICHMENT_CHARGE' });
    const first = await ledger.refundPayment(payment.id, 400); // 100 left to take of 400
    expect(first.shortfallCentavos).toBe(300);
    expect(first.entry).toMatchObject({
      amount: -100,
      balanceAfter: 0,
      reason: 'Estorno parcial: faltaram 300 centavos de saldo',
      metadata: { refundedCentavos: 400, shortfallCentavos: 300 },
    });
    expect(first.payment).toMatchObject({ status: 'SUCCEEDED', refundedCentavos: 400, refundShortfallCentavos: 300 });
    const second = await ledger.refundPayment(payment.id, 600); // nothing left: 200 more short
    expect(second).toMatchObject({ entry: null, shortfallCentavos: 200, replayed: false });
    expect(second.payment).toMatchObject({ status: 'SUCCEEDED', refundedCentavos: 600, refundShortfallCentavos: 500 });
    expect(await ledger.getMoneyBalanceCentavos(userId)).toBe(0);
    expect((await balanceEntries(userId)).filter((e) => e.kind === 'REFUND')).toHaveLength(1);
    await expectReconciled(userId);
  });
});

describe(`a purchase entry's metadata (${dbKind})`, () => {
  it('names what was refunded before the credit only when something was', async () => {
    const full = await card(600);
    const paid = await ledger.completePayment(full.payment.id);
    expect(paid.entry!.metadata).toEqual({ method: 'CARD', provider: 'STRIPE' });
    const part = await card(600);
    await ledger.refundPayment(part.payment.id, 1);
    const rest = await ledger.completePayment(part.payment.id);
    expect(rest.entry!.metadata).toEqual({ method: 'CARD', provider: 'STRIPE', refundedBeforeCreditCentavos: 1 });
    expect(rest.entry!.amount).toBe(599);
  });
});
