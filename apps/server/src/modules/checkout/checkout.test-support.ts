import http from 'node:http';
import Stripe from 'stripe';
import { expect } from 'vitest';
import { bearer, signUpAndSignIn } from '../../../test/factories.test-support.ts';
import { createTestServer, testConfig } from '../../../test/server.test-support.ts';
import type { RunningServer } from '../../server.ts';

export type Json = Record<string, unknown>;

/** Calls as the spec's legacy checkout does: the raw token in Authorization, no "Bearer". */
export function checkoutCall(server: RunningServer, token: string | undefined, payload: Json) {
  return server.app.inject({
    method: 'POST',
    url: '/api/checkout',
    payload,
    headers: token ? { authorization: token } : {},
  });
}

export const returnUrls = (server: RunningServer) => ({
  successUrl: `${server.config.publicUrl}/?success=true`,
  cancelUrl: `${server.config.publicUrl}/?cancel=true`,
});

export async function money(server: RunningServer, token: string): Promise<number> {
  const res = await server.app.inject({ method: 'GET', url: '/api/v1/dashboard/balance', headers: bearer(token) });
  return res.json().money;
}

export async function payments(server: RunningServer, token: string): Promise<Json[]> {
  const res = await server.app.inject({ method: 'GET', url: '/api/v1/payments', headers: bearer(token) });
  return res.json().items;
}

/** Every ledger entry and balance of the user agree (ADR 002's invariant). */
export async function expectReconciled(server: RunningServer, userId: string) {
  expect((await server.modules.ledger.reconcile(userId)).mismatches).toEqual([]);
}

/** A local stand-in for the Stripe API: the real SDK talks to it through STRIPE_API_BASE. */
export function startFakeStripe() {
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
          client_reference_id: body.get('client_reference_id'),
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

export type FakeStripe = ReturnType<typeof startFakeStripe>;

const WEBHOOK_SECRET = 'whsec_test_secret';

/**
 * The whole server with Stripe configured against a fake Stripe API, and helpers to drive a
 * card purchase: start a checkout as a new user, and deliver signed webhook events.
 */
export async function startStripeHarness() {
  const fake = startFakeStripe();
  const apiBase = await fake.listen();
  const server = await createTestServer({
    work: false,
    config: testConfig({
      STRIPE_SECRET_KEY: 'sk_test_fake',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: apiBase,
    }),
  });
  const signer = new Stripe('sk_test_signer');
  let n = 0;

  /** An event signed by Stripe's SDK (`timestamp`: seconds, for a replayed old one), or with `signature` as given. */
  function webhook(
    type: string,
    object: Json,
    options: { secret?: string; signature?: string | null; timestamp?: number } = {},
  ) {
    const payload = JSON.stringify({ id: `evt_${++n}`, object: 'event', type, data: { object } });
    const signature =
      options.signature === undefined
        ? signer.webhooks.generateTestHeaderString({
            payload,
            secret: options.secret ?? WEBHOOK_SECRET,
            ...(options.timestamp === undefined ? {} : { timestamp: options.timestamp }),
          })
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

  /** A `charge.refunded` event: Stripe's `amount_refunded` is cumulative, in centavos. */
  const refund = (session: Json, amountRefunded: number) =>
    webhook('charge.refunded', {
      id: `ch_${session.id}`,
      object: 'charge',
      payment_intent: session.payment_intent,
      amount_refunded: amountRefunded,
    });

  return {
    server,
    fake,
    webhook,
    startCheckout,
    refund,
    paidSession: (s: Json) => ({ ...s, payment_status: 'paid', status: 'complete' }),
    close: async () => {
      await server.close();
      await fake.close();
    },
  };
}

export type StripeHarness = Awaited<ReturnType<typeof startStripeHarness>>;
