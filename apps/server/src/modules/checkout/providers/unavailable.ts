import { AppError } from '../../../platform/errors/app-error.ts';
import type { PaymentProvider } from './provider.ts';

/**
 * No card payments on this server (no STRIPE_SECRET_KEY, no test checkout allowed). The service
 * refuses a purchase from the mode before anything is stored (503 CARD_PAYMENTS_NOT_CONFIGURED),
 * so no session is ever asked of it (were one asked, it refuses the same way, not with a 500); its
 * webhook is not there.
 */
export const noCardPayments: PaymentProvider = {
  mode: 'unavailable',
  async createCheckoutSession() {
    throw new AppError('CARD_PAYMENTS_NOT_CONFIGURED');
  },
  async parseWebhook() {
    throw new AppError('NOT_FOUND', undefined, { what: 'stripe' });
  },
  async paymentIdOfExternalPayment() {
    return null;
  },
};
