import { describe, expect, it } from 'vitest';
import { bearer, signUpAndSignIn } from '../../../test/factories.test-support.ts';
import { openBeforeAll } from '../../../test/hooks.test-support.ts';
import { createTestServer, dbKind, testConfig } from '../../../test/server.test-support.ts';
import type { RunningServer } from '../../server.ts';
import { checkoutCall, expectReconciled, money, payments, returnUrls } from './checkout.test-support.ts';

const PRODUCTION_URL = 'https://app.ecoa.example';
const form = { 'content-type': 'application/x-www-form-urlencoded' };

async function cardOption(server: RunningServer, token: string) {
  const res = await server.app.inject({ method: 'GET', url: '/api/v1/checkout/options', headers: bearer(token) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().card as string;
}

/**
 * The built-in test checkout credits balance without a charge: a server on a public address
 * that forgot STRIPE_SECRET_KEY must not offer it (blueprint section 2).
 */
describe(`card payments without Stripe on a public PUBLIC_URL (${dbKind})`, () => {
  let server: RunningServer;
  openBeforeAll(
    () => createTestServer({ work: false, config: testConfig({ PUBLIC_URL: PRODUCTION_URL }) }),
    (opened) => (server = opened),
  );

  it('POST /api/checkout answers 503 CARD_PAYMENTS_NOT_CONFIGURED and creates nothing', async () => {
    const { token } = await signUpAndSignIn(server);
    expect(await cardOption(server, token)).toBe('unavailable');
    const res = await checkoutCall(server, token, { amount: 300, ...returnUrls(server) });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      code: 'CARD_PAYMENTS_NOT_CONFIGURED',
      message: 'Pagamento com cartão não está configurado neste servidor.',
    });
    expect(await payments(server, token)).toEqual([]);
    expect(await money(server, token)).toBe(0);
  });

  it('the test checkout pages refuse, even for a test payment made before (e.g. when test mode was on)', async () => {
    const { token, user } = await signUpAndSignIn(server);
    const { ledger } = server.modules;
    const payment = await ledger.createPendingPayment({
      userId: user.id,
      amountCentavos: 300_00,
      method: 'CARD',
      provider: 'STRIPE',
      successUrl: returnUrls(server).successUrl,
      cancelUrl: returnUrls(server).cancelUrl,
    });
    const path = `/api/checkout/test/${payment.id}`;
    await ledger.attachCheckout(payment.id, {
      externalId: `test_${payment.id}`,
      checkoutUrl: `${PRODUCTION_URL}${path}`,
    });

    const page = await server.app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(503);
    expect(page.json().code).toBe('CARD_PAYMENTS_NOT_CONFIGURED');
    const pay = await server.app.inject({ method: 'POST', url: `${path}/pay`, payload: '', headers: form });
    expect(pay.statusCode).toBe(503);
    expect(await money(server, token)).toBe(0);
    expect((await payments(server, token))[0]).toMatchObject({ status: 'PENDING' });
    await expectReconciled(server, user.id);
  });

  it('the same server with CHECKOUT_TEST_MODE=true offers the test checkout (demos, staging)', async () => {
    const demo = await createTestServer({
      work: false,
      config: testConfig({ PUBLIC_URL: PRODUCTION_URL, CHECKOUT_TEST_MODE: 'true' }),
    });
    try {
      const { token, user } = await signUpAndSignIn(demo);
      expect(await cardOption(demo, token)).toBe('test');
      const res = await checkoutCall(demo, token, { amount: 300, ...returnUrls(demo) });
      expect(res.statusCode, res.body).toBe(200);
      const url = new URL(res.json().checkout_url);
      expect(url.origin).toBe(PRODUCTION_URL);
      const paid = await demo.app.inject({ method: 'POST', url: `${url.pathname}/pay`, payload: '', headers: form });
      expect(paid.statusCode).toBe(303);
      expect(await money(demo, token)).toBe(300);
      await expectReconciled(demo, user.id);
    } finally {
      await demo.close();
    }
  });

  it('the options need a session', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/v1/checkout/options' });
    expect(res.statusCode).toBe(401);
  });
});
