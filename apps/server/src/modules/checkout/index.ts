/**
 * Checkout's public surface: the module as the composition root builds it, card purchases (the
 * service the routes and the payment webhook use), the payment provider chosen at start from the
 * config.
 */
export { type CheckoutModule, createCheckoutModule } from './checkout.module.ts';
export { type CheckoutService, createCheckoutService } from './checkout.service.ts';
export { choosePaymentProvider, type PaymentProvider } from './providers/index.ts';
