/**
 * Checkout's public surface: card purchases (the service the routes and the payment webhook use),
 * the payment provider chosen at start from the config, and the routes.
 */
export { registerCheckoutRoutes } from './checkout.routes.ts';
export { type CheckoutService, createCheckoutService } from './checkout.service.ts';
export { choosePaymentProvider, type PaymentProvider } from './providers/index.ts';
