import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bearer } from '../../../test/factories.test-support.ts';
import { openBeforeAll } from '../../../test/hooks.test-support.ts';
import { dbKind } from '../../../test/server.test-support.ts';
import { users } from '../users/users.schema.ts';
import { expectReconciled, money, payments, type StripeHarness, startStripeHarness } from './checkout.test-support.ts';

describe(`card refunds through the Stripe webhook (${dbKind})`, () => {
  let h: StripeHarness;
  openBeforeAll(startStripeHarness, (opened) => (h = opened));

  it('takes refunds back, never below zero, recording the shortfall', async () => {
    const full = await h.startCheckout(300);
    await h.webhook('checkout.session.completed', h.paidSession(full.session));
    await h.refund(full.session, 10000); // R$ 100 partial
    await h.refund(full.session, 10000); // duplicate
    expect(await money(h.server, full.token)).toBe(200);
    await h.refund(full.session, 30000);
    expect(await money(h.server, full.token)).toBe(0);
    expect((await payments(h.server, full.token))[0]).toMatchObject({ status: 'REFUNDED', refunded: 300 });
    await expectReconciled(h.server, full.user.id);

    // Money already spent: only what is left is taken back; the rest is recorded as a shortfall.
    const spent = await h.startCheckout(300);
    await h.webhook('checkout.session.completed', h.paidSession(spent.session));
    await h.server.db.db.update(users).set({ priceSmsShort: 10000 }).where(eq(users.id, spent.user.id)); // R$ 1,00
    const transfer = await h.server.app.inject({
      method: 'POST',
      url: '/api/v1/credits/transfer',
      payload: { amount: 250, type: 'SMSSHORT' },
      headers: bearer(spent.token),
    });
    expect(transfer.statusCode, transfer.body).toBe(200);
    await h.refund(spent.session, 30000);
    expect(await money(h.server, spent.token)).toBe(0);
    const [payment] = await payments(h.server, spent.token);
    expect(payment).toMatchObject({ status: 'REFUNDED', refunded: 300 });
    const { rows } = await h.server.db.executeSql('select refund_shortfall_centavos as s from payments where id = $1', [
      payment!.id,
    ]);
    expect(Number((rows[0] as { s: number }).s)).toBe(250_00);
    await expectReconciled(h.server, spent.user.id);
  });

  it('a full refund seen before the success: nothing is ever credited, REFUNDED', async () => {
    const early = await h.startCheckout(300);
    await h.refund(early.session, 30000);
    await h.webhook('checkout.session.completed', h.paidSession(early.session));
    await h.webhook('checkout.session.async_payment_succeeded', h.paidSession(early.session));
    expect(await money(h.server, early.token)).toBe(0);
    expect((await payments(h.server, early.token))[0]).toMatchObject({ status: 'REFUNDED', refunded: 300 });
    await expectReconciled(h.server, early.user.id);
  });

  it('a partial refund seen before the success: the success credits what was paid minus the refund, once', async () => {
    const early = await h.startCheckout(300);
    await h.refund(early.session, 10000); // R$ 100 refunded before Stripe's "paid" reached us
    await h.refund(early.session, 10000); // duplicate
    expect((await payments(h.server, early.token))[0]).toMatchObject({ status: 'PENDING', refunded: 100 });
    await Promise.all([
      h.webhook('checkout.session.completed', h.paidSession(early.session)),
      h.webhook('checkout.session.completed', h.paidSession(early.session)),
    ]);
    await h.refund(early.session, 10000); // a late duplicate of the refund
    expect(await money(h.server, early.token)).toBe(200);
    expect((await payments(h.server, early.token))[0]).toMatchObject({ status: 'SUCCEEDED', refunded: 100 });
    // A later refund of the rest takes back exactly what was credited.
    await h.refund(early.session, 30000);
    expect(await money(h.server, early.token)).toBe(0);
    expect((await payments(h.server, early.token))[0]).toMatchObject({ status: 'REFUNDED', refunded: 300 });
    await expectReconciled(h.server, early.user.id);
  });
});
