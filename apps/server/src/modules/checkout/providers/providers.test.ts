import { describe, expect, it } from 'vitest';
import { testConfig } from '../../../../test/server.test-support.ts';
import { choosePaymentProvider } from './index.ts';

describe('choosePaymentProvider', () => {
  it('takes Stripe with a secret key, else the test checkout where allowed, else none', async () => {
    const stripe = choosePaymentProvider(testConfig({ STRIPE_SECRET_KEY: 'sk_test_1', CHECKOUT_TEST_MODE: 'true' }));
    expect(stripe.mode).toBe('stripe');
    const test = choosePaymentProvider(testConfig({ PUBLIC_URL: 'http://localhost:3000' }));
    expect(test.mode).toBe('test');
    expect(
      await test.createCheckoutSession({ paymentId: 'p1', amountCentavos: 100, successUrl: '', cancelUrl: '' }),
    ).toEqual({ id: 'test_p1', url: 'http://localhost:3000/api/checkout/test/p1' });
    const none = choosePaymentProvider(testConfig({ PUBLIC_URL: 'https://app.ecoa.com.br' }));
    expect(none.mode).toBe('unavailable');
    // Neither takes webhooks: Stripe's route answers 404 on a server without Stripe.
    for (const provider of [test, none]) {
      await expect(provider.parseWebhook(Buffer.from('{}'), 't=1,v1=x')).rejects.toMatchObject({
        status: 404,
        code: 'NOT_FOUND',
      });
    }
  });
});
