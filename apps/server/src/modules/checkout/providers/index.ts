import type { Config } from '../../../platform/config/config.ts';
import type { PaymentProvider } from './provider.ts';
import { createStripeProvider } from './stripe/stripe.provider.ts';
import { createTestCheckoutProvider } from './test-checkout/test-checkout.provider.ts';
import { noCardPayments } from './unavailable.ts';

export type { CheckoutSessionFacts, PaymentEvent, PaymentProvider } from './provider.ts';
export { testCheckoutIds } from './test-checkout/test-checkout.provider.ts';

/**
 * The card provider, chosen once at start (config.cardPayments): Stripe when STRIPE_SECRET_KEY is
 * set, else the built-in test checkout for a local trial or CHECKOUT_TEST_MODE, else none.
 */
export function choosePaymentProvider(config: Pick<Config, 'cardPayments' | 'stripe' | 'publicUrl'>): PaymentProvider {
  if (config.stripe) return createStripeProvider(config.stripe);
  if (config.cardPayments === 'test') return createTestCheckoutProvider(config.publicUrl);
  return noCardPayments;
}
