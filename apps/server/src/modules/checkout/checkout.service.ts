import { type CardPaymentMode, type CheckoutRequest, PAYMENT_ID_PLACEHOLDER } from '@ecoa/shared';
import { AppError } from '../../platform/errors/app-error.ts';
import type { Logger } from '../../platform/logger.ts';
import type { LedgerService, PaymentRow } from '../ledger/index.ts';
import {
  type CheckoutSessionFacts,
  type PaymentEvent,
  type PaymentProvider,
  testCheckoutIds,
} from './providers/index.ts';

export type CheckoutServiceDeps = {
  ledger: LedgerService;
  /** How card payments are taken here (`choosePaymentProvider(config)`): Stripe, the test checkout, or none. */
  provider: PaymentProvider;
  /** PUBLIC_URL: return URLs must be on this origin. */
  publicUrl: string;
  logger: Logger;
};

/** The payments' `provider` column: test checkout payments are recorded as STRIPE's too, told apart by their ids. */
const RECORDED_AS = 'STRIPE';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A return URL with `{PAYMENT_ID}` (as typed, or percent-encoded by a URL parser) replaced by the payment's id. */
export function withPaymentId(url: string, paymentId: string): string {
  const encoded = encodeURIComponent(PAYMENT_ID_PLACEHOLDER);
  return url.replaceAll(PAYMENT_ID_PLACEHOLDER, paymentId).replaceAll(encoded, paymentId);
}

/**
 * Card purchases: a PENDING payment and the provider's checkout session (Stripe's, or the
 * built-in test checkout's), then verified events that credit it exactly once, close it, or refund it.
 */
export function createCheckoutService(deps: CheckoutServiceDeps) {
  const { ledger, provider } = deps;
  const card: CardPaymentMode = provider.mode;
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
   * The payment a checkout session belongs to. Our payment id travels in the session, set before
   * the provider created it, so a session is found even when storing its id on the payment
   * failed; else by the stored session id.
   */
  async function paymentOfSession(session: CheckoutSessionFacts): Promise<PaymentRow | null> {
    const { paymentId } = session;
    const payment =
      (paymentId && UUID.test(paymentId) ? await ledger.findPayment(paymentId) : null) ??
      (await ledger.findPaymentByExternalId(RECORDED_AS, session.id));
    return payment?.provider === RECORDED_AS ? payment : null;
  }

  /** Why a verified session event may not settle `payment`, or null when it may. */
  function sessionProblem(session: CheckoutSessionFacts, payment: PaymentRow): string | null {
    // A payment has one session (its creation is keyed by the payment id); none stored means
    // storing it failed, and the metadata we set names the payment.
    if (payment.externalId !== null && session.id !== payment.externalId) {
      return 'session id does not match the payment';
    }
    if (session.amountCentavos !== payment.amountCentavos) {
      return `amount_total ${session.amountCentavos} differs from ${payment.amountCentavos}`;
    }
    if ((session.currency ?? '').toLowerCase() !== 'brl') return `currency ${session.currency}`;
    return null;
  }

  async function completeFromSession(eventId: string, session: CheckoutSessionFacts): Promise<void> {
    const payment = await paymentOfSession(session);
    if (!payment) {
      log.warn({ eventId, sessionId: session.id }, 'payment event for an unknown payment: ignored');
      return;
    }
    // The amount credited is always the payment's own; an event that disagrees is refused and flagged.
    const problem = sessionProblem(session, payment);
    if (problem) {
      log.error({ eventId, paymentId: payment.id, problem }, 'payment event refused');
      await ledger.flagPayment(payment.id, { refusedEvent: eventId, refusedReason: problem });
      return;
    }
    const result = await ledger.completePayment(payment.id, {
      externalPaymentId: session.externalPaymentId,
      externalId: session.id,
    });
    if (!result.replayed) log.info({ paymentId: payment.id, eventId }, 'card payment credited');
  }

  async function paymentOfExternalPayment(externalPaymentId: string): Promise<PaymentRow | null> {
    const known = await ledger.findPaymentByExternalPaymentId(RECORDED_AS, externalPaymentId);
    if (known) return known;
    // A refund can arrive before the success that would have recorded the money movement.
    const paymentId = await provider.paymentIdOfExternalPayment(externalPaymentId).catch(() => null);
    return paymentId ? ledger.findPayment(paymentId) : null;
  }

  /** The built-in test checkout's payment (only in test mode, only its own payments). */
  async function testPayment(paymentId: string): Promise<PaymentRow> {
    // A page made while test mode was on must not credit anything once it is off.
    if (card === 'unavailable') throw new AppError('CARD_PAYMENTS_NOT_CONFIGURED');
    if (card !== 'test') throw new AppError('NOT_FOUND', undefined, { what: 'testCheckout' });
    const payment = await ledger.findPayment(paymentId);
    if (!payment || payment.externalId !== testCheckoutIds.session(payment.id))
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
        provider: RECORDED_AS,
        successUrl: input.successUrl,
        cancelUrl: input.cancelUrl,
      });
      // Stored as sent; the id is filled in wherever a URL leaves for the processor or the browser.
      const successUrl = withPaymentId(input.successUrl, payment.id);
      const cancelUrl = withPaymentId(input.cancelUrl, payment.id);
      // The PENDING payment exists before the provider is called, and its id travels in the
      // session: if anything below fails after the provider created the session, a paid session
      // still finds its payment (paymentOfSession) and is credited once.
      let stage = `creating the ${card} checkout session`;
      try {
        const session = await provider.createCheckoutSession({
          paymentId: payment.id,
          amountCentavos: payment.amountCentavos,
          successUrl,
          cancelUrl,
          customerEmail: user.email,
        });
        stage = `storing the ${card} checkout session ${session.id}`;
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

    /** Verifies a webhook's signature on the raw body and reads it (a wrong signature: 400 INVALID_SIGNATURE). */
    async verifyEvent(rawBody: Buffer, signature: string | undefined): Promise<PaymentEvent> {
      try {
        return await provider.parseWebhook(rawBody, signature);
      } catch (err) {
        if (err instanceof AppError) throw err;
        log.warn({ err: (err as Error).message }, 'payment webhook with a bad signature');
        throw new AppError('INVALID_SIGNATURE');
      }
    },

    /**
     * Applies one verified event. Duplicates and any order are safe: crediting is keyed by the
     * payment, closing only moves PENDING, refunds are cumulative.
     */
    async handleEvent(event: PaymentEvent): Promise<void> {
      switch (event.kind) {
        case 'paid':
          await completeFromSession(event.eventId, event.session);
          return;
        case 'closed': {
          const payment = await paymentOfSession(event.session);
          if (payment && (payment.externalId === null || payment.externalId === event.session.id)) {
            await ledger.closePendingPayment(payment.id, event.status);
          }
          return;
        }
        case 'refunded': {
          const { externalPaymentId } = event;
          const payment = externalPaymentId ? await paymentOfExternalPayment(externalPaymentId) : null;
          if (!payment) {
            log.warn({ eventId: event.eventId, intentId: externalPaymentId }, 'refund for an unknown payment: ignored');
            return;
          }
          const result = await ledger.refundPayment(payment.id, event.amountRefundedCentavos);
          if (result.shortfallCentavos > 0) {
            log.warn(
              { paymentId: payment.id, shortfallCentavos: result.shortfallCentavos },
              'refund larger than the remaining balance: shortfall recorded',
            );
          }
          return;
        }
        case 'ignored':
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
        await ledger.completePayment(payment.id, { externalPaymentId: testCheckoutIds.payment(payment.id) });
        return success;
      }
      await ledger.closePendingPayment(payment.id, 'CANCELED');
      return cancel;
    },
  };
}

export type CheckoutService = ReturnType<typeof createCheckoutService>;
