/**
 * Checkout's public surface: card purchases (the service the routes and the Stripe webhook use),
 * the Stripe gateway chosen at start, and the routes.
 */
export { registerCheckoutRoutes } from './checkout.routes.ts';
export { type CheckoutService, createCheckoutService } from './checkout.service.ts';
export { createStripeGateway } from './checkout.stripe.ts';
