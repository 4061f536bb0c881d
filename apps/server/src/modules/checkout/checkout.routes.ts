import { checkoutOptionsSchema, checkoutRequestSchema, checkoutResponseSchema } from '@ecoa/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type AuthGuard, currentUser } from '../../platform/auth/guard.ts';
import { errorResponseSchema as errorResponse } from '../../platform/http/error-schema.ts';
import { routeOptions } from '../../platform/http/route-options.ts';
import type { CheckoutService } from './checkout.service.ts';
import { testCheckoutPage } from './providers/test-checkout/test-checkout.page.ts';

export type CheckoutRoutesDeps = { checkout: CheckoutService; guard: AuthGuard };

const paymentParams = z.object({ paymentId: z.uuid() });

/**
 * `POST /api/checkout` (spec section 7; the raw token is accepted too), the Stripe webhook, and
 * the built-in test checkout used when Stripe is not configured.
 */
export function registerCheckoutRoutes(app: FastifyInstance, deps: CheckoutRoutesDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { checkout, guard } = deps;
  const userRoute = routeOptions(guard.requireUser, { tags: ['checkout'], errors: { 401: errorResponse } });

  r.post(
    '/api/checkout',
    userRoute({
      summary: 'Start a card purchase of account balance (whole reais, at least R$ 270)',
      description:
        'Creates a PENDING payment and a Stripe Checkout Session in BRL (or the built-in test checkout without STRIPE_SECRET_KEY, on a loopback PUBLIC_URL or with CHECKOUT_TEST_MODE; else 503 CARD_PAYMENTS_NOT_CONFIGURED). Return URLs must be on this site.',
      body: checkoutRequestSchema,
      response: { 200: checkoutResponseSchema, 400: errorResponse, 502: errorResponse, 503: errorResponse },
    }),
    async (request) => {
      const user = currentUser(request);
      const { checkoutUrl } = await checkout.createCheckout({ id: user.id, email: user.email }, request.body);
      return { checkout_url: checkoutUrl };
    },
  );

  r.get(
    '/api/v1/checkout/options',
    userRoute({
      summary: 'How card payments work on this server: stripe, test (no real charge) or unavailable',
      response: { 200: checkoutOptionsSchema },
    }),
    async () => ({ card: checkout.cardPayments }),
  );

  // The webhook needs the exact raw body for the signature: its own JSON parser, in its own scope.
  app.register(async (scope) => {
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
      done(null, body);
    });
    scope.post(
      '/api/webhooks/stripe',
      {
        schema: { tags: ['checkout'], summary: 'Stripe events (signature verified on the raw body)' },
      },
      async (request) => {
        const signature = request.headers['stripe-signature'];
        const event = await checkout.verifyEvent(
          request.body as Buffer,
          Array.isArray(signature) ? signature[0] : signature,
        );
        await checkout.handleEvent(event);
        return { received: true };
      },
    );
  });

  // The built-in test checkout: its forms post urlencoded bodies, which carry nothing we read.
  app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, _body, done) => {
      done(null, {});
    });
    const t = scope.withTypeProvider<ZodTypeProvider>();
    t.get(
      '/api/checkout/test/:paymentId',
      { schema: { hide: true, params: paymentParams } },
      async (request, reply) => {
        const payment = await checkout.testPayment(request.params.paymentId);
        return reply
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          .send(testCheckoutPage(payment));
      },
    );
    for (const action of ['pay', 'cancel'] as const) {
      t.post(
        `/api/checkout/test/:paymentId/${action}`,
        { schema: { hide: true, params: paymentParams } },
        async (request, reply) => {
          const back = await checkout.finishTestCheckout(request.params.paymentId, action);
          return reply.redirect(back, 303);
        },
      );
    }
  });
}
