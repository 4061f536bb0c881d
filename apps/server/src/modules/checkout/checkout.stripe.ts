import type Stripe from 'stripe';

/** What the checkout needs from the card provider; the real SDK behind it (tests point it at a fake API). */
export type CardGateway = {
  createCheckoutSession(input: {
    paymentId: string;
    amountCentavos: number;
    successUrl: string;
    cancelUrl: string;
    customerEmail?: string;
  }): Promise<{ id: string; url: string }>;
  /** Verifies the signature on the exact raw body; throws when it does not match. */
  constructEvent(rawBody: Buffer | string, signature: string): Promise<Stripe.Event>;
  /** The payment id we put in a PaymentIntent's metadata (to place a refund seen before the success). */
  paymentIdOfPaymentIntent(paymentIntentId: string): Promise<string | null>;
};

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

export function createStripeGateway(config: StripeConfig): CardGateway {
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
    async constructEvent(rawBody, signature) {
      if (!config.webhookSecret) throw new Error('STRIPE_WEBHOOK_SECRET is not set');
      const stripe = await stripeClient();
      return stripe.webhooks.constructEvent(rawBody, signature, config.webhookSecret);
    },
    async paymentIdOfPaymentIntent(paymentIntentId) {
      const stripe = await stripeClient();
      const intent = await stripe.paymentIntents.retrieve(paymentIntentId);
      return intent.metadata?.paymentId ?? null;
    },
  };
}
