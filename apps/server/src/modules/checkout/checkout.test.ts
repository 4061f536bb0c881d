import http from 'node:http';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, signUpAndSignIn } from '../../../test/factories.ts';
import { createTestServer, dbKind, testConfig } from '../../../test/helpers.ts';
import type { RunningServer } from '../../server.ts';
import { users } from '../users/users.schema.ts';

type Json = Record<string, unknown>;

/** Calls as the spec's legacy checkout does: the raw token in Authorization, no "Bearer". */
function checkoutCall(server: RunningServer, token: string | undefined, payload: Json) {
  return server.app.inject({
    method: 'POST',
    url: '/api/checkout',
    payload,
    headers: token ? { authorization: token } : {},
  });
}

const returnUrls = (server: RunningServer) => ({
  successUrl: `${server.config.publicUrl}/?success=true`,
  cancelUrl: `${server.config.publicUrl}/?cancel=true`,
});

async function money(server: RunningServer, token: string): Promise<number> {
  const res = await server.app.inject({ method: 'GET', url: '/api/v1/dashboard/balance', headers: bearer(token) });
  return res.json().money;
}

async function payments(server: RunningServer, token: string): Promise<Json[]> {
  const res = await server.app.inject({ method: 'GET', url: '/api/v1/payments', headers: bearer(token) });
  return res.json().items;
}

describe(`checkout without Stripe: the built-in test checkout (${dbKind})`, () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await createTestServer({ work: false });
  });
  afterAll(async () => {
    await server?.close();
  });

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

  it('has no Stripe webhook, and no test page for unknown payments', async () => {
    const hook = await server.app.inject({ method: 'POST', url: '/api/webhooks/stripe', payload: {} });
    expect(hook.statusCode).toBe(404);
    const page = await server.app.inject({ method: 'GET', url: `/api/checkout/test/${crypto.randomUUID()}` });
    expect(page.statusCode).toBe(404);
  });
});

/** A local stand-in for the Stripe API: the real SDK talks to it through STRIPE_API_BASE. */
function startFakeStripe() {
  const sessions = new Map<string, Json>();
  const requests: { path: string; idempotencyKey?: string; body: URLSearchParams }[] = [];
  let failures = 0;
  let n = 0;
  // Ids unique per run: the PostgreSQL suite keeps one database across runs.
  const run = crypto.randomUUID().slice(0, 8);
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => {
      raw += c;
    });
    req.on('end', () => {
      const body = new URLSearchParams(raw);
      requests.push({ path: req.url ?? '', idempotencyKey: req.headers['idempotency-key'] as string, body });
      res.setHeader('content-type', 'application/json');
      if (failures > 0) {
        failures--;
        res.statusCode = 500;
        res.end(JSON.stringify({ error: { type: 'api_error', message: 'boom' } }));
        return;
      }
      if (req.method === 'POST' && req.url === '/v1/checkout/sessions') {
        const id = `cs_test_${run}_${++n}`;
        const session = {
          id,
          object: 'checkout.session',
          url: `https://checkout.stripe.test/pay/${id}`,
          amount_total: Number(body.get('line_items[0][price_data][unit_amount]')),
          currency: body.get('line_items[0][price_data][currency]'),
          metadata: { paymentId: body.get('metadata[paymentId]') },
          payment_intent: `pi_test_${run}_${n}`,
        };
        sessions.set(id, session);
        res.end(JSON.stringify(session));
        return;
      }
      const intent = /^\/v1\/payment_intents\/(pi_test_\w+)/.exec(req.url ?? '');
      if (req.method === 'GET' && intent) {
        const session = [...sessions.values()].find((s) => s.payment_intent === intent[1]);
        res.end(JSON.stringify({ id: intent[1], object: 'payment_intent', metadata: session?.metadata ?? {} }));
        return;
      }
      res.statusCode = 404;
      res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'not faked' } }));
    });
  });
  return {
    sessions,
    requests,
    /** The next `count` requests answer 500 (the SDK retries twice). */
    fail: (count: number) => {
      failures = count;
    },
    async listen(): Promise<string> {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
      return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe(`checkout with Stripe (real SDK, fake API) (${dbKind})`, () => {
  const WEBHOOK_SECRET = 'whsec_test_secret';
  const fake = startFakeStripe();
  const signer = new Stripe('sk_test_signer');
  let server: RunningServer;
  let n = 0;

  beforeAll(async () => {
    const apiBase = await fake.listen();
    server = await createTestServer({
      work: false,
      config: testConfig({
        STRIPE_SECRET_KEY: 'sk_test_fake',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_BASE: apiBase,
      }),
    });
  });
  afterAll(async () => {
    await server?.close();
    await fake.close();
  });

  function webhook(type: string, object: Json, options: { secret?: string; signature?: string | null } = {}) {
    const payload = JSON.stringify({ id: `evt_${++n}`, object: 'event', type, data: { object } });
    const signature =
      options.signature === undefined
        ? signer.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? WEBHOOK_SECRET })
        : options.signature;
    return server.app.inject({
      method: 'POST',
      url: '/api/webhooks/stripe',
      payload,
      headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
    });
  }

  /** A signed-in user with a fresh checkout of `amount` reais: its session as Stripe has it. */
  async function startCheckout(amount = 300) {
    const user = await signUpAndSignIn(server);
    const res = await checkoutCall(server, user.token, { amount, ...returnUrls(server) });
    expect(res.statusCode, res.body).toBe(200);
    const id = /cs_test_\w+/.exec(res.json().checkout_url)![0];
    const session = fake.sessions.get(id)!;
    return { ...user, session, checkoutUrl: res.json().checkout_url as string };
  }

  const paidSession = (s: Json) => ({ ...s, payment_status: 'paid', status: 'complete' });

  it('creates a Checkout Session in BRL with the payment id and an idempotency key', async () => {
    const { token, session, checkoutUrl } = await startCheckout(270);
    expect(checkoutUrl).toBe(session.url);
    const paymentId = (session.metadata as Json).paymentId as string;
    const sent = fake.requests.find((r) => r.body.get('metadata[paymentId]') === paymentId)!;
    expect(sent.idempotencyKey).toBe(`checkout:${paymentId}`);
    expect(sent.body.get('line_items[0][price_data][currency]')).toBe('brl');
    expect(sent.body.get('line_items[0][price_data][unit_amount]')).toBe('27000');
    expect(sent.body.get('payment_intent_data[metadata][paymentId]')).toBe(paymentId);
    expect(sent.body.get('success_url')).toBe(returnUrls(server).successUrl);
    expect((await payments(server, token))[0]).toMatchObject({ id: paymentId, status: 'PENDING', provider: 'STRIPE' });
  });

  it('credits a paid session exactly once, whatever the duplicates', async () => {
    const { token, session } = await startCheckout(300);
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

  it('takes refunds back, never below zero, recording the shortfall', async () => {
    const full = await startCheckout(300);
    await webhook('checkout.session.completed', paidSession(full.session));
    const charge = { id: `ch_${n}`, object: 'charge', payment_intent: full.session.payment_intent };
    await webhook('charge.refunded', { ...charge, amount_refunded: 10000 }); // R$ 100 partial
    await webhook('charge.refunded', { ...charge, amount_refunded: 10000 }); // duplicate
    expect(await money(server, full.token)).toBe(200);
    await webhook('charge.refunded', { ...charge, amount_refunded: 30000 });
    expect(await money(server, full.token)).toBe(0);
    expect((await payments(server, full.token))[0]).toMatchObject({ status: 'REFUNDED', refunded: 300 });

    // Money already spent: only what is left is taken back; the rest is recorded as a shortfall.
    const spent = await startCheckout(300);
    await webhook('checkout.session.completed', paidSession(spent.session));
    await server.db.db.update(users).set({ priceSmsShort: 10000 }).where(eq(users.id, spent.user.id)); // R$ 1,00
    const transfer = await server.app.inject({
      method: 'POST',
      url: '/api/v1/credits/transfer',
      payload: { amount: 250, type: 'SMSSHORT' },
      headers: bearer(spent.token),
    });
    expect(transfer.statusCode, transfer.body).toBe(200);
    await webhook('charge.refunded', {
      id: 'ch_2',
      object: 'charge',
      payment_intent: spent.session.payment_intent,
      amount_refunded: 30000,
    });
    expect(await money(server, spent.token)).toBe(0);
    const [payment] = await payments(server, spent.token);
    expect(payment).toMatchObject({ status: 'REFUNDED', refunded: 300 });
    const { rows } = await server.db.executeSql('select refund_shortfall_centavos as s from payments where id = $1', [
      payment!.id,
    ]);
    expect(Number((rows[0] as { s: number }).s)).toBe(250_00);
  });

  it('a refund seen before the success: the payment is never credited', async () => {
    const early = await startCheckout(300);
    await webhook('charge.refunded', {
      id: 'ch_early',
      object: 'charge',
      payment_intent: early.session.payment_intent,
      amount_refunded: 30000,
    });
    await webhook('checkout.session.completed', paidSession(early.session));
    expect(await money(server, early.token)).toBe(0);
    expect((await payments(server, early.token))[0]).toMatchObject({ status: 'REFUNDED' });
  });

  it('answers 502 when Stripe fails, and marks the payment FAILED', async () => {
    const user = await signUpAndSignIn(server);
    fake.fail(3);
    const res = await checkoutCall(server, user.token, { amount: 300, ...returnUrls(server) });
    expect(res.statusCode).toBe(502);
    expect(res.json().code).toBe('CHECKOUT_FAILED');
    expect((await payments(server, user.token))[0]).toMatchObject({ status: 'FAILED' });
  });
});
