import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, signUpAndSignIn } from '../../../test/factories.test-support.ts';
import { openBeforeAll } from '../../../test/hooks.test-support.ts';
import { createTestServer, dbKind } from '../../../test/server.test-support.ts';
import type { RunningServer } from '../../server.ts';
import {
  checkoutCall,
  expectReconciled,
  type Json,
  money,
  payments,
  returnUrls,
  type StripeHarness,
  startStripeHarness,
} from './checkout.test-support.ts';

describe(`checkout without Stripe: the built-in test checkout (${dbKind})`, () => {
  let server: RunningServer;
  openBeforeAll(
    () => createTestServer({ work: false }),
    (opened) => (server = opened),
  );

  it('validates the amount (whole reais, R$ 270 to R$ 100.000), the return URLs and the session', async () => {
    const { token } = await signUpAndSignIn(server);
    const cases: [Json, string][] = [
      [{ amount: 269 }, 'O valor mínimo para compra é de R$ 270,00'],
      [{ amount: 0 }, 'O valor mínimo para compra é de R$ 270,00'],
      [{}, 'O valor mínimo para compra é de R$ 270,00'],
      [{ amount: 270.5 }, 'O valor da compra deve ser em reais inteiros'],
      [{ amount: 100_001 }, 'O valor máximo por compra é de R$ 100.000,00'],
      [{ amount: 300, successUrl: 'https://evil.example/?success=true' }, 'Endereço de retorno inválido'],
      [{ amount: 300, cancelUrl: 'javascript:alert(1)' }, 'Endereço de retorno inválido'],
    ];
    for (const [body, message] of cases) {
      const res = await checkoutCall(server, token, { ...returnUrls(server), ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toBe(message);
    }
    expect(await payments(server, token)).toEqual([]);
    const anonymous = await checkoutCall(server, undefined, { amount: 300, ...returnUrls(server) });
    expect(anonymous.statusCode).toBe(401);
  });

  it('pays on the test page: credited once, back to the success URL', async () => {
    const { token } = await signUpAndSignIn(server);
    const res = await checkoutCall(server, token, { amount: 270, ...returnUrls(server) });
    expect(res.statusCode, res.body).toBe(200);
    const url = new URL(res.json().checkout_url);
    expect(url.origin).toBe(server.config.publicUrl);
    expect((await payments(server, token))[0]).toMatchObject({ status: 'PENDING', amount: 270, method: 'CARD' });

    const page = await server.app.inject({ method: 'GET', url: url.pathname });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('PAGAMENTO DE TESTE');
    expect(page.body).toContain('R$\u00a0270,00');

    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const paid = await server.app.inject({ method: 'POST', url: `${url.pathname}/pay`, payload: '', headers: form });
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(returnUrls(server).successUrl);
    const again = await server.app.inject({ method: 'POST', url: `${url.pathname}/pay`, payload: '', headers: form });
    expect(again.statusCode).toBe(303);
    expect(await money(server, token)).toBe(270);
    expect((await payments(server, token))[0]).toMatchObject({ status: 'SUCCEEDED' });
    // A cancel after the payment changes nothing.
    await server.app.inject({ method: 'POST', url: `${url.pathname}/cancel`, payload: '', headers: form });
    expect((await payments(server, token))[0]).toMatchObject({ status: 'SUCCEEDED' });
  });

  it('cancels on the test page: nothing credited, back to the cancel URL', async () => {
    const { token } = await signUpAndSignIn(server);
    const res = await checkoutCall(server, token, { amount: 500, ...returnUrls(server) });
    const path = new URL(res.json().checkout_url).pathname;
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const canceled = await server.app.inject({ method: 'POST', url: `${path}/cancel`, payload: '', headers: form });
    expect(canceled.headers.location).toBe(returnUrls(server).cancelUrl);
    // The page left open in another tab cannot pay a canceled checkout.
    const late = await server.app.inject({ method: 'POST', url: `${path}/pay`, payload: '', headers: form });
    expect(late.statusCode).toBe(303);
    expect(late.headers.location).toBe(returnUrls(server).cancelUrl);
    expect(await money(server, token)).toBe(0);
    expect((await payments(server, token))[0]).toMatchObject({ status: 'CANCELED' });
  });

  it('tells the web that card payments use the test checkout (a local trial: PUBLIC_URL on localhost)', async () => {
    const { token } = await signUpAndSignIn(server);
    const res = await server.app.inject({ method: 'GET', url: '/api/v1/checkout/options', headers: bearer(token) });
    expect(res.json()).toEqual({ card: 'test' });
  });

  it('has no Stripe webhook, and no test page for unknown payments', async () => {
    const hook = await server.app.inject({ method: 'POST', url: '/api/webhooks/stripe', payload: {} });
    expect(hook.statusCode).toBe(404);
    const page = await server.app.inject({ method: 'GET', url: `/api/checkout/test/${crypto.randomUUID()}` });
    expect(page.statusCode).toBe(404);
  });
});

describe(`checkout with Stripe (real SDK, fake API) (${dbKind})`, () => {
  let h: StripeHarness;
  let server: RunningServer;
  beforeAll(async () => {
    h = await startStripeHarness();
    server = h.server;
  });
  afterAll(async () => {
    await h?.close();
  });
  const webhook: StripeHarness['webhook'] = (...args) => h.webhook(...args);
  const startCheckout: StripeHarness['startCheckout'] = (...args) => h.startCheckout(...args);
  const paidSession = (s: Json) => h.paidSession(s);

  it('tells the web that card payments go through Stripe; the test checkout pages do not exist', async () => {
    const { token, user } = await signUpAndSignIn(server);
    const res = await server.app.inject({ method: 'GET', url: '/api/v1/checkout/options', headers: bearer(token) });
    expect(res.json()).toEqual({ card: 'stripe' });
    const payment = await server.modules.ledger.createPendingPayment({
      userId: user.id,
      amountCentavos: 300_00,
      method: 'CARD',
      provider: 'STRIPE',
    });
    const page = await server.app.inject({ method: 'GET', url: `/api/checkout/test/${payment.id}` });
    expect(page.statusCode).toBe(404);
  });

  it('creates a Checkout Session in BRL with the payment id and an idempotency key', async () => {
    const { token, session, checkoutUrl } = await startCheckout(270);
    expect(checkoutUrl).toBe(session.url);
    const paymentId = (session.metadata as Json).paymentId as string;
    const sent = h.fake.requests.find((r) => r.body.get('metadata[paymentId]') === paymentId)!;
    expect(sent.idempotencyKey).toBe(`checkout:${paymentId}`);
    expect(sent.body.get('line_items[0][price_data][currency]')).toBe('brl');
    expect(sent.body.get('line_items[0][price_data][unit_amount]')).toBe('27000');
    expect(sent.body.get('payment_intent_data[metadata][paymentId]')).toBe(paymentId);
    // The payment is stored before Stripe is called: its id also names the session for Stripe.
    expect(sent.body.get('client_reference_id')).toBe(paymentId);
    expect(sent.body.get('success_url')).toBe(returnUrls(server).successUrl);
    expect((await payments(server, token))[0]).toMatchObject({ id: paymentId, status: 'PENDING', provider: 'STRIPE' });
  });

  it('credits a paid session exactly once, whatever the duplicates', async () => {
    const { token, session, user } = await startCheckout(300);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => webhook('checkout.session.completed', paidSession(session))),
    );
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    await webhook('checkout.session.async_payment_succeeded', paidSession(session));
    expect(await money(server, token)).toBe(300);
    expect((await payments(server, token))[0]).toMatchObject({ status: 'SUCCEEDED' });
    // A late expiry changes nothing.
    await webhook('checkout.session.expired', { ...session, status: 'expired' });
    expect((await payments(server, token))[0]).toMatchObject({ status: 'SUCCEEDED' });
    await expectReconciled(server, user.id);
  });

  it('refuses a bad or missing signature and changes nothing', async () => {
    const { token, session } = await startCheckout(300);
    const forged = await webhook('checkout.session.completed', paidSession(session), { secret: 'whsec_wrong' });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().code).toBe('INVALID_SIGNATURE');
    const unsigned = await webhook('checkout.session.completed', paidSession(session), { signature: null });
    expect(unsigned.statusCode).toBe(400);
    const garbage = await webhook('checkout.session.completed', paidSession(session), { signature: 't=1,v1=abc' });
    expect(garbage.statusCode).toBe(400);
    // Rightly signed, but ten minutes ago (Stripe's tolerance is five): a replay, refused.
    const replayed = await webhook('checkout.session.completed', paidSession(session), {
      timestamp: Math.floor(Date.now() / 1000) - 600,
    });
    expect(replayed.statusCode).toBe(400);
    expect(replayed.json().code).toBe('INVALID_SIGNATURE');
    expect(await money(server, token)).toBe(0);
  });

  it('refuses a tampered amount or currency: nothing credited, the payment flagged', async () => {
    const { token, session } = await startCheckout(300);
    await webhook('checkout.session.completed', { ...paidSession(session), amount_total: 3_000_000 });
    await webhook('checkout.session.completed', { ...paidSession(session), currency: 'usd' });
    expect(await money(server, token)).toBe(0);
    expect((await payments(server, token))[0]).toMatchObject({ status: 'PENDING' });
    // The genuine event still works afterwards.
    await webhook('checkout.session.completed', paidSession(session));
    expect(await money(server, token)).toBe(300);
  });

  it('waits for delayed methods; failed and expired sessions become FAILED and CANCELED', async () => {
    const delayed = await startCheckout(400);
    await webhook('checkout.session.completed', { ...delayed.session, payment_status: 'unpaid' });
    expect(await money(server, delayed.token)).toBe(0);
    await webhook('checkout.session.async_payment_succeeded', paidSession(delayed.session));
    expect(await money(server, delayed.token)).toBe(400);

    const failed = await startCheckout(300);
    await webhook('checkout.session.async_payment_failed', failed.session);
    expect((await payments(server, failed.token))[0]).toMatchObject({ status: 'FAILED' });

    const expired = await startCheckout(300);
    await webhook('checkout.session.expired', expired.session);
    expect((await payments(server, expired.token))[0]).toMatchObject({ status: 'CANCELED' });
  });

  it('a paid session whose id could not be stored is still credited, exactly once', async () => {
    const { user, token } = await signUpAndSignIn(server);
    // Storing the session id fails after Stripe created the session (a database error at that
    // moment): a trigger refuses that one write for this user only.
    const fn = `fail_session_write_${user.id.replaceAll('-', '')}`;
    await server.db.executeSql(
      `create function ${fn}() returns trigger language plpgsql as $$ begin raise exception 'simulated failure storing the session id'; end $$`,
    );
    await server.db.executeSql(
      `create trigger ${fn} before update of external_id on payments for each row when (new.user_id = '${user.id}' and new.external_id is not null) execute function ${fn}()`,
    );
    let res: Awaited<ReturnType<typeof checkoutCall>>;
    try {
      res = await checkoutCall(server, token, { amount: 300, ...returnUrls(server) });
    } finally {
      await server.db.executeSql(`drop trigger ${fn} on payments`);
      await server.db.executeSql(`drop function ${fn}()`);
    }
    expect(res.statusCode).toBe(502);
    expect(res.json().code).toBe('CHECKOUT_FAILED');
    const [payment] = await payments(server, token);
    expect(payment).toMatchObject({ status: 'FAILED' });
    const session = [...h.fake.sessions.values()].find((s) => (s.metadata as Json).paymentId === payment!.id)!;
    expect(session).toBeDefined();

    // The customer paid that session anyway (e.g. a page opened from a retried response): the
    // webhook finds the payment by the id in the session's metadata and credits it once.
    const results = await Promise.all(
      Array.from({ length: 3 }, () => webhook('checkout.session.completed', paidSession(session))),
    );
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    await webhook('checkout.session.async_payment_succeeded', paidSession(session));
    expect(await money(server, token)).toBe(300);
    expect((await payments(server, token))[0]).toMatchObject({ id: payment!.id, status: 'SUCCEEDED' });
    const stored = await server.modules.ledger.findPayment(payment!.id as string);
    expect(stored).toMatchObject({ externalId: session.id, externalPaymentId: session.payment_intent });
    await expectReconciled(server, user.id);
  });

  it('a session for a payment that already has another session id is refused and flagged', async () => {
    const { token, session } = await startCheckout(300);
    const other = { ...paidSession(session), id: `${session.id}_other` };
    await webhook('checkout.session.completed', other);
    expect(await money(server, token)).toBe(0);
    const stored = await server.modules.ledger.findPayment((session.metadata as Json).paymentId as string);
    expect(stored).toMatchObject({ status: 'PENDING', externalId: session.id });
    expect(stored?.metadata).toMatchObject({ refusedReason: 'session id does not match the payment' });
  });

  it('answers 502 when Stripe fails, and marks the payment FAILED', async () => {
    const user = await signUpAndSignIn(server);
    h.fake.fail(3);
    const res = await checkoutCall(server, user.token, { amount: 300, ...returnUrls(server) });
    expect(res.statusCode).toBe(502);
    expect(res.json().code).toBe('CHECKOUT_FAILED');
    expect((await payments(server, user.token))[0]).toMatchObject({ status: 'FAILED' });
  });
});
