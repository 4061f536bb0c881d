import { type CardPaymentMode, type CheckoutRequest, PAYMENT_ID_PLACEHOLDER } from '@ecoa/shared';
import type Stripe from 'stripe';
import { AppError } from '../../platform/errors/app-error.ts';
import type { Logger } from '../../platform/logger.ts';
import type { LedgerService, PaymentRow } from '../ledger/index.ts';
import type { CardGateway } from './checkout.stripe.ts';

export type CheckoutServiceDeps = {
  ledger: LedgerService;
  /** The card provider (STRIPE_SECRET_KEY); null → the built-in test checkout, if allowed. */
  gateway: CardGateway | null;
  /**
   * Without a gateway: whether the built-in test checkout (credits without a charge) may run —
   * config.cardPayments `test` (a loopback PUBLIC_URL or CHECKOUT_TEST_MODE). Else card
   * payments are not configured.
   */
  testCheckout: boolean;
  /** PUBLIC_URL: return URLs must be on this origin; the test checkout page lives under it. */
  publicUrl: string;
  logger: Logger;
};

const TEST_PREFIX = 'test_';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A return URL with `{PAYMENT_ID}` (as typed, or percent-encoded by a URL parser) replaced by the payment's id. */
export function withPaymentId(url: string, paymentId: string): string {
  const encoded = encodeURIComponent(PAYMENT_ID_PLACEHOLDER);
  return url.replaceAll(PAYMENT_ID_PLACEHOLDER, paymentId).replaceAll(encoded, paymentId);
}

/**
 * Card purchases: a PENDING payment and a Stripe Checkout Session (or the built-in test
 * checkout), then webhook events that credit it exactly once, close it, or refund it.
 */
export function createCheckoutService(deps: CheckoutServiceDeps) {
  const { ledger, gateway } = deps;
  const card: CardPaymentMode = gateway ? 'stripe' : deps.testCheckout ? 'test' : 'unavailable';
  const log = deps.logger.child({ module: 'checkout' });
  const origin = new URL(deps.publicUrl).origin;

  function sameOrigin(url: string): boolean {
    try {
      return new URL(url).origin === origin;
    } catch {
      return false;
    }
  }

  /**
   * The payment a Checkout Session belongs to. Our payment id travels in the session's metadata
   * (and client_reference_id), set before Stripe created it, so a session is found even when
   * storing its id on the payment failed; else by the stored session id.
   */
  async function paymentOfSession(session: Stripe.Checkout.Session): Promise<PaymentRow | null> {
    const paymentId = session.metadata?.paymentId ?? session.client_reference_id;
    const payment =
      (paymentId && UUID.test(paymentId) ? await ledger.findPayment(paymentId) : null) ??
      (await ledger.findPaymentByExternalId('STRIPE', session.id));
    return payment?.provider === 'STRIPE' ? payment : null;
  }

  /** Why a verified session event may not settle `payment`, or null when it may. */
  function sessionProblem(session: Stripe.Checkout.Session, payment: PaymentRow): string | null {
    // A payment has one session (its creation is keyed by the payment id); none stored means
    // storing it failed, and the metadata we set names the payment.
    if (payment.externalId !== null && session.id !== payment.externalId) {
      return 'session id does not match the payment';
    }
    if (session.amount_total !== payment.amountCentavos) {
      return `amount_total ${session.amount_total} differs from ${payment.amountCentavos}`;
    }
    if ((session.currency ?? '').toLowerCase() !== 'brl') return `currency ${session.currency}`;
    return null;
  }

  async function completeFromSession(event: Stripe.Event, session: Stripe.Checkout.Session): Promise<void> {
    const payment = await paymentOfSession(session);
    if (!payment) {
      log.warn({ eventId: event.id, sessionId: session.id }, 'stripe event for an unknown payment: ignored');
      return;
    }
    // The amount credited is always the payment's own; an event that disagrees is refused and flagged.
    const problem = sessionProblem(session, payment);
    if (problem) {
      log.error({ eventId: event.id, paymentId: payment.id, problem }, 'stripe event refused');
      await ledger.flagPayment(payment.id, { refusedEvent: event.id, refusedReason: problem });
      return;
    }
    const intent = typeof session.payment_intent === 'string' ? session.payment_intent : session.payment_intent?.id;
    const result = await ledger.completePayment(payment.id, {
      externalPaymentId: intent ?? null,
      externalId: session.id,
    });
    if (!result.replayed) log.info({ paymentId: payment.id, eventId: event.id }, 'card payment credited');
  }

  async function paymentOfIntent(intentId: string): Promise<PaymentRow | null> {
    const known = await ledger.findPaymentByExternalPaymentId('STRIPE', intentId);
    if (known) return known;
    // A refund can arrive before the success that would have recorded the PaymentIntent.
    const paymentId = await gateway?.paymentIdOfPaymentIntent(intentId).catch(() => null);
    return paymentId ? ledger.findPayment(paymentId) : null;
  }

  /** The built-in test checkout's payment (only in test mode, only its own payments). */
  async function testPayment(paymentId: string): Promise<PaymentRow> {
    // A page made while test mode was on must not credit anything once it is off.
    if (card === 'unavailable') throw new AppError('CARD_PAYMENTS_NOT_CONFIGURED');
    if (card !== 'test') throw new AppError('NOT_FOUND', undefined, { what: 'testCheckout' });
    const payment = await ledger.findPayment(paymentId);
    if (!payment || payment.externalId !== `${TEST_PREFIX}${payment.id}`)
      throw new AppError('NOT_FOUND', undefined, { what: 'testCheckout' });
    return payment;
  }

  return {
    /** How card payments work here (`GET /api/v1/checkout/options`; a warning at start unless Stripe). */
    cardPayments: card,

    /** `POST /api/checkout`: a PENDING card payment and where to pay it. */
    async createCheckout(
      user: { id: string; email?: string },
      input: CheckoutRequest,
    ): Promise<{ checkoutUrl: string }> {
      if (card === 'unavailable') throw new AppError('CARD_PAYMENTS_NOT_CONFIGURED');
      if (!sameOrigin(input.successUrl) || !sameOrigin(input.cancelUrl)) throw new AppError('INVALID_RETURN_URL');
      const payment = await ledger.createPendingPayment({
        userId: user.id,
        amountCentavos: input.amount * 100,
        method: 'CARD',
        provider: 'STRIPE',
        successUrl: input.successUrl,
        cancelUrl: input.cancelUrl,
      });
      // Stored as sent; the id is filled in wherever a URL leaves for the processor or the browser.
      const successUrl = withPaymentId(input.successUrl, payment.id);
      const cancelUrl = withPaymentId(input.cancelUrl, payment.id);
      if (!gateway) {
        const checkoutUrl = `${deps.publicUrl}/api/checkout/test/${payment.id}`;
        await ledger.attachCheckout(payment.id, { externalId: `${TEST_PREFIX}${payment.id}`, checkoutUrl });
        return { checkoutUrl };
      }
      // The PENDING payment exists before Stripe is called, and its id travels in the session:
      // if anything below fails after Stripe created the session, a paid session still finds
      // its payment (paymentOfSession) and is credited once.
      let stage = 'creating the stripe checkout session';
      try {
        const session = await gateway.createCheckoutSession({
          paymentId: payment.id,
          amountCentavos: payment.amountCentavos,
          successUrl,
          cancelUrl,
          customerEmail: user.email,
        });
        stage = `storing the stripe checkout session ${session.id}`;
        await ledger.attachCheckout(payment.id, { externalId: session.id, checkoutUrl: session.url });
        return { checkoutUrl: session.url };
      } catch (err) {
        log.error({ err, paymentId: payment.id }, `checkout failed while ${stage}`);
        // Best effort (the database may be what failed); a later "paid" is credited even so.
        await ledger.closePendingPayment(payment.id, 'FAILED').catch((closeErr: unknown) => {
          log.error({ err: closeErr, paymentId: payment.id }, 'could not mark the payment FAILED');
        });
        throw new AppError('CHECKOUT_FAILED');
      }
    },

    /** Verifies a webhook's signature on the raw body (throws 400 INVALID_SIGNATURE). */
    async verifyEvent(rawBody: Buffer, signature: string | undefined): Promise<Stripe.Event> {
      if (!gateway) throw new AppError('NOT_FOUND', undefined, { what: 'stripe' });
      if (!signature) throw new AppError('INVALID_SIGNATURE', undefined, { missing: true });
      try {
        return await gateway.constructEvent(rawBody, signature);
      } catch (err) {
        log.warn({ err: (err as Error).message }, 'stripe webhook with a bad signature');
        throw new AppError('INVALID_SIGNATURE');
      }
    },

    /**
     * Applies one verified event. Duplicates and any order are safe: crediting is keyed by the
     * payment, closing only moves PENDING, refunds are cumulative.
     */
    async handleEvent(event: Stripe.Event): Promise<void> {
      switch (event.type) {
        case 'checkout.session.completed':
          // Delayed methods complete with payment_status "unpaid"; async_payment_succeeded follows.
          if (event.data.object.payment_status === 'paid') await completeFromSession(event, event.data.object);
          return;
        case 'checkout.session.async_payment_succeeded':
          await completeFromSession(event, event.data.object);
          return;
        case 'checkout.session.async_payment_failed':
        case 'checkout.session.expired': {
          const session = event.data.object;
          const payment = await paymentOfSession(session);
          if (payment && (payment.externalId === null || payment.externalId === session.id)) {
            await ledger.closePendingPayment(
              payment.id,
              event.type === 'checkout.session.expired' ? 'CANCELED' : 'FAILED',
            );
          }
          return;
        }
        case 'charge.refunded': {
          const charge = event.data.object;
          const intentId =
            typeof charge.payment_intent === 'string' ? charge.payment_intent : charge.payment_intent?.id;
          const payment = intentId ? await paymentOfIntent(intentId) : null;
          if (!payment) {
            log.warn({ eventId: event.id, intentId }, 'refund for an unknown payment: ignored');
            return;
          }
          const result = await ledger.refundPayment(payment.id, charge.amount_refunded);
          if (result.shortfallCentavos > 0) {
            log.warn(
              { paymentId: payment.id, shortfallCentavos: result.shortfallCentavos },
              'refund larger than the remaining balance: shortfall recorded',
            );
          }
          return;
        }
        default:
          return;
      }
    },

    testPayment,

    /**
     * The test checkout's Pay / Cancel: the same internal path as the webhook (completePayment,
     * closePendingPayment). Answers where to send the customer back.
     */
    async finishTestCheckout(paymentId: string, action: 'pay' | 'cancel'): Promise<string> {
      const payment = await testPayment(paymentId);
      const success = withPaymentId(payment.successUrl ?? `${deps.publicUrl}/?success=true`, payment.id);
      const cancel = withPaymentId(payment.cancelUrl ?? `${deps.publicUrl}/?cancel=true`, payment.id);
      // A page left open in another tab: only a PENDING payment can still be paid or canceled.
      if (payment.status !== 'PENDING') return payment.status === 'SUCCEEDED' ? success : cancel;
      if (action === 'pay') {
        await ledger.completePayment(payment.id, { externalPaymentId: `${TEST_PREFIX}pi_${payment.id}` });
        return success;
      }
      await ledger.closePendingPayment(payment.id, 'CANCELED');
      return cancel;
    },
  };
}

export type CheckoutService = ReturnType<typeof createCheckoutService>;
