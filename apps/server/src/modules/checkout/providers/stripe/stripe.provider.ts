import type Stripe from 'stripe';
import { AppError } from '../../../../platform/errors/app-error.ts';
import type { CheckoutSessionFacts, PaymentEvent, PaymentProvider } from '../provider.ts';

export type StripeConfig = { secretKey: string; webhookSecret: string | undefined; apiBase: string | undefined };

/** Stripe's options for a custom API base (STRIPE_API_BASE, e.g. a local fake in tests). */
export function stripeHostOptions(apiBase: string | undefined): Stripe.StripeConfig {
  if (!apiBase) return {};
  const url = new URL(apiBase);
  return {
    host: url.hostname,
    port: url.port || (url.protocol === 'https:' ? 443 : 80),
    protocol: url.protocol === 'http:' ? 'http' : 'https',
  };
}

/** A Checkout Session as the checkout reads it: our payment id travels in its metadata and client_reference_id. */
function sessionFacts(session: Stripe.Checkout.Session): CheckoutSessionFacts {
  const intent = typeof session.payment_intent === 'string' ? session.payment_intent : session.payment_intent?.id;
  return {
    id: session.id,
    paymentId: session.metadata?.paymentId ?? session.client_reference_id ?? null,
    amountCentavos: session.amount_total,
    currency: session.currency,
    externalPaymentId: intent ?? null,
  };
}

/** The events the checkout acts on; every other type is ignored. */
export function paymentEventOf(event: Stripe.Event): PaymentEvent {
  switch (event.type) {
    case 'checkout.session.completed':
      // Delayed methods complete with payment_status "unpaid"; async_payment_succeeded follows.
      return event.data.object.payment_status === 'paid'
        ? { kind: 'paid', eventId: event.id, session: sessionFacts(event.data.object) }
        : { kind: 'ignored' };
    case 'checkout.session.async_payment_succeeded':
      return { kind: 'paid', eventId: event.id, session: sessionFacts(event.data.object) };
    case 'checkout.session.async_payment_failed':
      return { kind: 'closed', eventId: event.id, session: sessionFacts(event.data.object), status: 'FAILED' };
    case 'checkout.session.expired':
      return { kind: 'closed', eventId: event.id, session: sessionFacts(event.data.object), status: 'CANCELED' };
    case 'charge.refunded': {
      const charge = event.data.object;
      const intent = typeof charge.payment_intent === 'string' ? charge.payment_intent : charge.payment_intent?.id;
      return {
        kind: 'refunded',
        eventId: event.id,
        externalPaymentId: intent ?? null,
        amountRefundedCentavos: charge.amount_refunded,
      };
    }
    default:
      return { kind: 'ignored' };
  }
}

/** Stripe Checkout (STRIPE_SECRET_KEY) through its real SDK; tests point it at a fake API (STRIPE_API_BASE). */
export function createStripeProvider(config: StripeConfig): PaymentProvider {
  // The SDK (~20 MB resident with its resources) is loaded at the first card payment or webhook.
  let client: Promise<Stripe> | undefined;
  const stripeClient = () => {
    client ??= import('stripe').then(
      ({ default: StripeSdk }) =>
        new StripeSdk(config.secretKey, { maxNetworkRetries: 2, ...stripeHostOptions(config.apiBase) }),
    );
    return client;
  };
  return {
    mode: 'stripe',
    async createCheckoutSession(input) {
      const stripe = await stripeClient();
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: 'brl',
                unit_amount: input.amountCentavos,
                product_data: { name: 'Ecoa — saldo pré-pago' },
              },
            },
          ],
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
          // Our payment id names the session three ways, so an event always finds its payment.
          client_reference_id: input.paymentId,
          ...(input.customerEmail ? { customer_email: input.customerEmail } : {}),
          metadata: { paymentId: input.paymentId },
          payment_intent_data: { metadata: { paymentId: input.paymentId } },
        },
        // One Checkout Session per payment, even if this call is retried.
        { idempotencyKey: `checkout:${input.paymentId}` },
      );
      if (!session.url) throw new Error(`Stripe returned a checkout session without a url (${session.id})`);
      return { id: session.id, url: session.url };
    },
    async parseWebhook(rawBody, signature) {
      if (!signature) throw new AppError('INVALID_SIGNATURE', undefined, { missing: true });
      if (!config.webhookSecret) throw new Error('STRIPE_WEBHOOK_SECRET is not set');
      const stripe = await stripeClient();
      return paymentEventOf(stripe.webhooks.constructEvent(rawBody, signature, config.webhookSecret));
    },
    /** The payment id we put in a PaymentIntent's metadata. */
    async paymentIdOfExternalPayment(paymentIntentId) {
      const stripe = await stripeClient();
      const intent = await stripe.paymentIntents.retrieve(paymentIntentId);
      return intent.metadata?.paymentId ?? null;
    },
  };
}
