import {
  adminAdjustmentResultSchema,
  adminAdjustmentSchema,
  adminPaymentResultSchema,
  adminPaymentSchema,
  CREDIT_TYPES,
  creditTransferResultSchema,
  creditTransferSchema,
  dashboardBalanceSchema,
  ledgerEntrySchema,
  pageSchema,
  paginationQuerySchema,
  paymentSchema,
  paymentStatusSchema,
  reaisToCentavos,
} from '@ecoa/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type AuthGuard, currentUser } from '../../platform/auth/guard.ts';
import { errorResponseSchema as errorResponse } from '../../platform/http/error-schema.ts';
import { idempotencyHeaderDoc, idempotencyKey } from '../../platform/http/idempotency-key.ts';
import { routeOptions } from '../../platform/http/route-options.ts';
import { createLedgerApi } from './ledger.api.ts';
import type { LedgerService } from './ledger.service.ts';

export type LedgerRoutesDeps = { ledger: LedgerService; guard: AuthGuard };

/** Client keys live in their own namespace per operation, apart from the server's own keys. */
const prefixed = (operation: string, key: string | undefined) =>
  key === undefined ? undefined : `${operation}:${key}`;

const userParams = z.object({ id: z.uuid('Usuário inválido.') });
const entriesQuery = paginationQuerySchema.extend({ type: z.enum(CREDIT_TYPES).optional() });
const entriesPageSchema = pageSchema(ledgerEntrySchema);
const paymentsPageSchema = pageSchema(paymentSchema);

/**
 * Balances, transfers, history and the administrators' payments and adjustments.
 * Money in JSON is reais (a number); credits are whole units.
 */
export function registerLedgerRoutes(app: FastifyInstance, deps: LedgerRoutesDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { ledger, guard } = deps;
  const api = createLedgerApi(ledger);
  const adminErrors = { 401: errorResponse, 403: errorResponse, 404: errorResponse };
  const userRoute = routeOptions(guard.requireUser, { tags: ['ledger'] });
  const adminRoute = routeOptions(guard.requireAdmin, { tags: ['admin'], errors: adminErrors });
  const plainAdminRoute = routeOptions(guard.requireAdmin, { tags: ['admin'] });

  /**
   * The reads of a user's money, each twice: the signed-in user's own, and any user's for the
   * administrators (404 when there is no such user). Same answer, same query.
   */
  function ownAndAdminRead<R extends z.ZodType, Q extends z.ZodType | undefined = undefined>(read: {
    own: { path: string; summary: string };
    admin: { below: string; summary: string };
    querystring?: Q;
    response: R;
    run: (userId: string, query: Q extends z.ZodType ? z.output<Q> : undefined) => Promise<z.input<R>>;
  }) {
    type Query = Q extends z.ZodType ? z.output<Q> : undefined;
    const { response, run } = read;
    const querystring = read.querystring && { querystring: read.querystring };
    // Typed by `read` (its schemas are generic here): the app's own `get`, not the zod-typed one.
    app.get(
      read.own.path,
      userRoute({ summary: read.own.summary, ...querystring, response: { 200: response, 401: errorResponse } }),
      async (request) => run(currentUser(request).id, request.query as Query),
    );
    app.get(
      `/api/v1/admin/users/:id/${read.admin.below}`,
      adminRoute({ summary: read.admin.summary, params: userParams, ...querystring, response: { 200: response } }),
      async (request) => {
        const { id } = request.params as z.output<typeof userParams>;
        await ledger.assertUserExists(id);
        return run(id, request.query as Query);
      },
    );
  }

  ownAndAdminRead({
    own: {
      path: '/api/v1/dashboard/balance',
      summary: 'Money (reais) and every credit type (available and reserved) of the signed-in user',
    },
    admin: { below: 'balance', summary: 'A user’s balances (same shape as the dashboard balance)' },
    response: dashboardBalanceSchema,
    run: (userId) => api.balance(userId),
  });
  ownAndAdminRead({
    own: { path: '/api/v1/ledger', summary: 'The signed-in user’s ledger, newest first' },
    admin: { below: 'ledger', summary: 'A user’s ledger, newest first' },
    querystring: entriesQuery,
    response: entriesPageSchema,
    run: (userId, query) => api.entriesPage(userId, query),
  });
  ownAndAdminRead({
    own: { path: '/api/v1/payments', summary: 'The signed-in user’s payments, newest first' },
    admin: { below: 'payments', summary: 'A user’s payments, newest first' },
    querystring: paginationQuerySchema,
    response: paymentsPageSchema,
    run: (userId, query) => api.paymentsPage(userId, query),
  });

  r.post(
    '/api/v1/credits/transfer',
    userRoute({
      summary: 'Turn money into credits at the user’s unit price (atomic)',
      description: `amount: whole credits (> 0); type: any credit type but BALANCE. Errors: 400 INVALID_QUANTITY "Quantidade inválida" (the cost, rounded up to the centavo, exceeds the balance), 400 WHATSAPP_MINIMUM, 400 PRICE_NOT_CONFIGURED. ${idempotencyHeaderDoc.description}`,
      body: creditTransferSchema,
      response: { 200: creditTransferResultSchema, 400: errorResponse, 401: errorResponse, 409: errorResponse },
    }),
    async (request) =>
      api.transfer({
        userId: currentUser(request).id,
        type: request.body.type,
        quantity: request.body.amount,
        idempotencyKey: prefixed('transfer', idempotencyKey(request)),
      }),
  );

  r.get(
    '/api/v1/payments/:id',
    userRoute({
      summary: 'Where one of the signed-in user’s payments stands (another user’s: 404)',
      description:
        'PENDING until the card processor confirms it (webhook), then SUCCEEDED (the money is credited), FAILED or CANCELED; REFUNDED later. The web app polls it when a card checkout sends the customer back.',
      params: z.object({ id: z.uuid() }),
      response: { 200: paymentStatusSchema, 400: errorResponse, 401: errorResponse, 404: errorResponse },
    }),
    async (request) => api.paymentStatus(currentUser(request).id, request.params.id),
  );

  // --- administrators -------------------------------------------------------------------

  r.post(
    '/api/v1/admin/users/:id/payments',
    plainAdminRoute({
      summary: 'Record a MANUAL or PIX payment (amount in reais); credited at once',
      description: idempotencyHeaderDoc.description,
      params: userParams,
      body: adminPaymentSchema,
      response: {
        200: adminPaymentResultSchema.describe('A retry with the same Idempotency-Key: the first result'),
        201: adminPaymentResultSchema,
        400: errorResponse,
        ...adminErrors,
        409: errorResponse,
      },
    }),
    async (request, reply) => {
      const result = await api.recordManualPayment({
        userId: request.params.id,
        amountCentavos: reaisToCentavos(request.body.amount)!,
        method: request.body.method,
        reason: request.body.reason,
        actorUserId: currentUser(request).id,
        idempotencyKey: prefixed('admin-payment', idempotencyKey(request)),
      });
      return reply.status(result.replayed ? 200 : 201).send(result.body);
    },
  );

  r.post(
    '/api/v1/admin/users/:id/adjustments',
    plainAdminRoute({
      summary: 'Adjust one balance with a reason (signed; reais for BALANCE, units otherwise)',
      description: `Never below zero: 400 ADJUSTMENT_BELOW_ZERO. ${idempotencyHeaderDoc.description}`,
      params: userParams,
      body: adminAdjustmentSchema,
      response: {
        200: adminAdjustmentResultSchema.describe('A retry with the same Idempotency-Key: the first result'),
        201: adminAdjustmentResultSchema,
        400: errorResponse,
        ...adminErrors,
        409: errorResponse,
      },
    }),
    async (request, reply) => {
      const { type, amount, reason } = request.body;
      const units = type === 'BALANCE' ? reaisToCentavos(amount)! : amount;
      const result = await api.adjust({
        userId: request.params.id,
        type,
        amount: units,
        reason,
        actorUserId: currentUser(request).id,
        idempotencyKey: prefixed('admin-adjustment', idempotencyKey(request)),
      });
      return reply.status(result.replayed ? 200 : 201).send(result.body);
    },
  );
}
