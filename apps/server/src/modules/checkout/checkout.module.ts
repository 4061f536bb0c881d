/**
 * Card purchases as the composition root wires them: Stripe when STRIPE_SECRET_KEY is set, else
 * the built-in test checkout page for a local trial or CHECKOUT_TEST_MODE, else none
 * (config.cardPayments); the operator is told at start when no real card payment is possible.
 */
import type { Config } from '../../platform/config/config.ts';
import type { RegisterRoutes } from '../../platform/http/module-routes.ts';
import type { Logger } from '../../platform/logger.ts';
import type { LedgerService } from '../ledger/index.ts';
import { registerCheckoutRoutes } from './checkout.routes.ts';
import { type CheckoutService, createCheckoutService } from './checkout.service.ts';
import { choosePaymentProvider } from './providers/index.ts';

export type CheckoutModule = { service: CheckoutService; registerRoutes: RegisterRoutes };

export function createCheckoutModule(deps: { config: Config; ledger: LedgerService; logger: Logger }): CheckoutModule {
  const { config, logger } = deps;
  const service = createCheckoutService({
    ledger: deps.ledger,
    provider: choosePaymentProvider(config),
    publicUrl: config.publicUrl,
    logger,
  });
  return {
    service,
    registerRoutes: (app, guard) => {
      registerCheckoutRoutes(app, { checkout: service, guard });
      if (service.cardPayments === 'test') {
        logger.warn('STRIPE_SECRET_KEY is not set: card purchases use the built-in TEST checkout (no real charge)');
      } else if (service.cardPayments === 'unavailable') {
        logger.warn(
          'card payments are not configured: set STRIPE_SECRET_KEY (CHECKOUT_TEST_MODE=true offers the test checkout)',
        );
      }
    },
  };
}
