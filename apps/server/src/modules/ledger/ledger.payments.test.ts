import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKind } from '../../../test/server.test-support.ts';
import type { DbHandle } from '../../platform/db/client.ts';
import type { LedgerService } from './ledger.service.ts';
import { insertTestUser, openLedgerTestDb } from './ledger.test-support.ts';

let handle: DbHandle;
let ledger: LedgerService;

beforeAll(async () => {
  ({ handle, ledger } = await openLedgerTestDb());
});
afterAll(() => handle?.close());

async function expectReconciled(userId: string) {
  expect((await ledger.reconcile(userId)).mismatches).toEqual([]);
}

/** A card payment of `centavos`, PENDING as the checkout leaves it. */
async function pendingCardPayment(centavos: number) {
  const user = await insertTestUser(handle.db);
  const payment = await ledger.createPendingPayment({
    userId: user.id,
    amountCentavos: centavos,
    method: 'CARD',
    provider: 'STRIPE',
  });
  return { user, payment };
}

/** The provider's events: S = paid, R<n> = Stripe's cumulative amount_refunded of n centavos. */
type Event = 'S' | `R${number}`;

async function deliver(paymentId: string, events: Event[]) {
  for (const event of events) {
    if (event === 'S') await ledger.completePayment(paymentId);
    else await ledger.refundPayment(paymentId, Number(event.slice(1)));
  }
}

async function purchaseEntries(userId: string) {
  const { items } = await ledger.listEntries(userId, { page: 1, pageSize: 50, type: 'BALANCE' });
  return items.filter((e) => e.kind === 'PURCHASE');
}

describe(`card payments settled by amounts: success and refunds in any order (${dbKind})`, () => {
  const PAID = 300_00;

  // Whatever order the success and the refunds arrive in, and however often each is repeated,
  // the customer ends credited exactly what they paid minus what was refunded.
  const cases: { events: Event[]; money: number; status: string; refunded: number }[] = [
    { events: ['R10000', 'S'], money: 200_00, status: 'SUCCEEDED', refunded: 100_00 },
    { events: ['S', 'R10000'], money: 200_00, status: 'SUCCEEDED', refunded: 100_00 },
    { events: ['R10000', 'R10000', 'S', 'S'], money: 200_00, status: 'SUCCEEDED', refunded: 100_00 },
    { events: ['S', 'R10000', 'S', 'R10000'], money: 200_00, status: 'SUCCEEDED', refunded: 100_00 },
    { events: ['R10000', 'S', 'R25000'], money: 50_00, status: 'SUCCEEDED', refunded: 250_00 },
    { events: ['R25000', 'R10000', 'S'], money: 50_00, status: 'SUCCEEDED', refunded: 250_00 },
    { events: ['R30000', 'S'], money: 0, status: 'REFUNDED', refunded: 300_00 },
    { events: ['R30000', 'S', 'S', 'R30000'], money: 0, status: 'REFUNDED', refunded: 300_00 },
    { events: ['S', 'R30000'], money: 0, status: 'REFUNDED', refunded: 300_00 },
    { events: ['R10000', 'S', 'R30000', 'S'], money: 0, status: 'REFUNDED', refunded: 300_00 },
    { events: ['R10000', 'R30000', 'S'], money: 0, status: 'REFUNDED', refunded: 300_00 },
  ];

  for (const { events, money, status, refunded } of cases) {
    it(`${events.join(' → ')}: credited ${money / 100} reais, ${status}`, async () => {
      const { user, payment } = await pendingCardPayment(PAID);
      await deliver(payment.id, events);
      expect(await ledger.getMoneyBalanceCentavos(user.id)).toBe(money);
      const after = await ledger.findPayment(payment.id);
      expect(after).toMatchObject({ status, refundedCentavos: refunded, refundShortfallCentavos: 0 });
      // Credited at most once, and never more than what was not refunded at that moment.
      const purchases = await purchaseEntries(user.id);
      expect(purchases.length).toBeLessThanOrEqual(1);
      expect(purchases[0]?.amount ?? 0).toBeLessThanOrEqual(PAID);
      await expectReconciled(user.id);
    });
  }

  it('a partial refund before the success: the success credits the rest, even against concurrent duplicates', async () => {
    const { user, payment } = await pendingCardPayment(PAID);
    await ledger.refundPayment(payment.id, 120_00);
    expect(await ledger.findPayment(payment.id)).toMatchObject({ status: 'PENDING', refundedCentavos: 120_00 });
    const results = await Promise.all([
      ...Array.from({ length: 5 }, () => ledger.completePayment(payment.id)),
      ledger.refundPayment(payment.id, 120_00),
    ]);
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    expect(await ledger.getMoneyBalanceCentavos(user.id)).toBe(180_00);
    const [purchase] = await purchaseEntries(user.id);
    expect(purchase).toMatchObject({ amount: 180_00, referenceType: 'payment', referenceId: payment.id });
    await expectReconciled(user.id);
  });

  it('a refund after the money was spent takes back what is left and records the shortfall', async () => {
    const { user, payment } = await pendingCardPayment(PAID);
    await deliver(payment.id, ['R5000', 'S']); // credited 250
    await ledger.debit({ userId: user.id, type: 'BALANCE', amount: 200_00, kind: 'ENRICHMENT_CHARGE' });
    await ledger.refundPayment(payment.id, PAID); // 250 more to take back, 50 left
    expect(await ledger.getMoneyBalanceCentavos(user.id)).toBe(0);
    expect(await ledger.findPayment(payment.id)).toMatchObject({
      status: 'REFUNDED',
      refundedCentavos: PAID,
      refundShortfallCentavos: 200_00,
    });
    await expectReconciled(user.id);
  });
});
