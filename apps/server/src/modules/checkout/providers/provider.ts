import type { CardPaymentMode } from '@ecoa/shared';

/** What a checkout session says about the payment it was made for, once its event is verified. */
export type CheckoutSessionFacts = {
  /** The provider's session id: the payment's `externalId`. */
  id: string;
  /** Our payment id, as we put it in the session when creating it (null when absent). */
  paymentId: string | null;
  amountCentavos: number | null;
  currency: string | null;
  /** The provider's id of the money movement (the payment's `externalPaymentId`; refunds name it). */
  externalPaymentId: string | null;
};

/** A verified webhook event, in the checkout's own words: the provider's types stay in its folder. */
export type PaymentEvent =
  | { kind: 'paid'; eventId: string; session: CheckoutSessionFacts }
  | { kind: 'closed'; eventId: string; session: CheckoutSessionFacts; status: 'CANCELED' | 'FAILED' }
  | { kind: 'refunded'; eventId: string; externalPaymentId: string | null; amountRefundedCentavos: number }
  /** Nothing for us to do (another event type, or a completion still waiting for its money). */
  | { kind: 'ignored' };

/**
 * How card payments are taken (ADR 002), chosen once at start from the config
 * (`providers/index.ts`): Stripe, the built-in test checkout, or none.
 */
export type PaymentProvider = {
  readonly mode: CardPaymentMode;
  /** A checkout session for a PENDING payment: where the customer pays it. */
  createCheckoutSession(input: {
    paymentId: string;
    amountCentavos: number;
    successUrl: string;
    cancelUrl: string;
    customerEmail?: string;
  }): Promise<{ id: string; url: string }>;
  /**
   * Verifies a webhook on its exact raw body and reads it. Throws an `AppError` for an answer of
   * its own (no webhooks here, no signature), anything else when the signature does not match.
   */
  parseWebhook(rawBody: Buffer, signature: string | undefined): Promise<PaymentEvent>;
  /** Our payment id as the provider keeps it for a money movement (a refund seen before its success). */
  paymentIdOfExternalPayment(externalPaymentId: string): Promise<string | null>;
};
