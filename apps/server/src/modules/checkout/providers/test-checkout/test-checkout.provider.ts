import { AppError } from '../../../../platform/errors/app-error.ts';
import type { PaymentProvider } from '../provider.ts';

/** The test checkout's payments are told apart by their external ids: `test_<payment id>`. */
const TEST_PREFIX = 'test_';

export const testCheckoutIds = {
  /** The "session" of a test payment (its `externalId`). */
  session: (paymentId: string) => `${TEST_PREFIX}${paymentId}`,
  /** The "money movement" of a paid test payment (its `externalPaymentId`). */
  payment: (paymentId: string) => `${TEST_PREFIX}pi_${paymentId}`,
};

/**
 * The built-in test checkout (a loopback PUBLIC_URL or CHECKOUT_TEST_MODE, without Stripe): a
 * page of this server's (`test-checkout.page.ts`) whose Pay credits the payment without any
 * charge. It has no webhooks: its Pay and Cancel settle the payment directly.
 */
export function createTestCheckoutProvider(publicUrl: string): PaymentProvider {
  return {
    mode: 'test',
    async createCheckoutSession({ paymentId }) {
      return { id: testCheckoutIds.session(paymentId), url: `${publicUrl}/api/checkout/test/${paymentId}` };
    },
    async parseWebhook() {
      throw new AppError('NOT_FOUND', undefined, { what: 'stripe' });
    },
    async paymentIdOfExternalPayment() {
      return null;
    },
  };
}
