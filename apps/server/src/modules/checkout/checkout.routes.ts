import { checkoutOptionsSchema, checkoutRequestSchema, checkoutResponseSchema, formatBRL } from '@ecoa/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type AuthGuard, currentUser } from '../../platform/auth/guard.ts';
import { errorResponseSchema as errorResponse } from '../../platform/http/error-schema.ts';
import type { PaymentRow } from '../ledger/index.ts';
import type { CheckoutService } from './checkout.service.ts';

export type CheckoutRoutesDeps = { checkout: CheckoutService; guard: AuthGuard };

const paymentParams = z.object({ paymentId: z.uuid() });

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The built-in test checkout: plain HTML and two forms (the CSP allows no inline script). */
function testCheckoutPage(payment: PaymentRow): string {
  const amount = escapeHtml(formatBRL(payment.amountCentavos));
  const pending = payment.status === 'PENDING';
  const action = (what: string, label: string, style: string) =>
    `<form method="post" action="/api/checkout/test/${payment.id}/${what}"><button type="submit" style="${style}">${label}</button></form>`;
  const button =
    'font:inherit;font-weight:600;padding:.8rem 1.6rem;border-radius:8px;border:1px solid #1c7ed6;cursor:pointer;';
  return `<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Pagamento de teste — Ecoa</title></head>
<body style="font-family:system-ui,sans-serif;background:#f1f3f5;margin:0;padding:2rem;color:#212529">
<main style="max-width:28rem;margin:2rem auto;background:#fff;border-radius:12px;padding:2rem;box-shadow:0 2px 12px rgba(0,0,0,.08)">
<p style="background:#fff3bf;border:1px solid #fab005;border-radius:8px;padding:.75rem;margin:0 0 1.5rem;font-weight:600">
PAGAMENTO DE TESTE — nenhum cartão é cobrado. Este servidor não tem Stripe configurado (STRIPE_SECRET_KEY).</p>
<h1 style="font-size:1.25rem;margin:0 0 .5rem">Ecoa — saldo pré-pago</h1>
<p style="font-size:2rem;font-weight:700;margin:.5rem 0 1.5rem" data-testid="amount">${amount}</p>
${
  pending
    ? `<div style="display:flex;gap:1rem">${action('pay', 'Pagar', `${button}background:#1c7ed6;color:#fff`)}${action(
        'cancel',
        'Cancelar',
        `${button}background:#fff;color:#1c7ed6`,
      )}</div>`
    : `<p>Este pagamento já foi processado (${escapeHtml(payment.status)}).</p><p><a href="/">Voltar para o painel</a></p>`
}
</main></body></html>`;
}

/**
 * `POST /api/checkout` (spec section 7; the raw token is accepted too), the Stripe webhook, and
 * the built-in test checkout used when Stripe is not configured.
 */
export function registerCheckoutRoutes(app: FastifyInstance, deps: CheckoutRoutesDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { checkout, guard } = deps;

  r.post(
    '/api/checkout',
    {
      onRequest: guard.requireUser,
      schema: {
        tags: ['checkout'],
        summary: 'Start a card purchase of account balance (whole reais, at least R$ 270)',
        description:
          'Creates a PENDING payment and a Stripe Checkout Session in BRL (or the built-in test checkout without STRIPE_SECRET_KEY, on a loopback PUBLIC_URL or with CHECKOUT_TEST_MODE; else 503 CARD_PAYMENTS_NOT_CONFIGURED). Return URLs must be on this site.',
        security: [{ bearer: [] }],
        body: checkoutRequestSchema,
        response: {
          200: checkoutResponseSchema,
          400: errorResponse,
          401: errorResponse,
          502: errorResponse,
          503: errorResponse,
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { checkoutUrl } = await checkout.createCheckout({ id: user.id, email: user.email }, request.body);
      return { checkout_url: checkoutUrl };
    },
  );

  r.get(
    '/api/v1/checkout/options',
    {
      onRequest: guard.requireUser,
      schema: {
        tags: ['checkout'],
        summary: 'How card payments work on this server: stripe, test (no real charge) or unavailable',
        security: [{ bearer: [] }],
        response: { 200: checkoutOptionsSchema, 401: errorResponse },
      },
    },
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
