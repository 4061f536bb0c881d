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

  r.get(
    '/api/v1/dashboard/balance',
    userRoute({
      summary: 'Money (reais) and every credit type (available and reserved) of the signed-in user',
      response: { 200: dashboardBalanceSchema, 401: errorResponse },
    }),
    async (request) => api.balance(currentUser(request).id),
  );

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
    '/api/v1/ledger',
    userRoute({
      summary: 'The signed-in user’s ledger, newest first',
      querystring: entriesQuery,
      response: { 200: entriesPageSchema, 401: errorResponse },
    }),
    async (request) => api.entriesPage(currentUser(request).id, request.query),
  );

  r.get(
    '/api/v1/payments',
    userRoute({
      summary: 'The signed-in user’s payments, newest first',
      querystring: paginationQuerySchema,
      response: { 200: paymentsPageSchema, 401: errorResponse },
    }),
    async (request) => api.paymentsPage(currentUser(request).id, request.query),
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

  r.get(
    '/api/v1/admin/users/:id/balance',
    adminRoute({
      summary: 'A user’s balances (same shape as the dashboard balance)',
      params: userParams,
      response: { 200: dashboardBalanceSchema },
    }),
    async (request) => {
      await ledger.assertUserExists(request.params.id);
      return api.balance(request.params.id);
    },
  );

  r.get(
    '/api/v1/admin/users/:id/ledger',
    adminRoute({
      summary: 'A user’s ledger, newest first',
      params: userParams,
      querystring: entriesQuery,
      response: { 200: entriesPageSchema },
    }),
    async (request) => {
      await ledger.assertUserExists(request.params.id);
      return api.entriesPage(request.params.id, request.query);
    },
  );

  r.get(
    '/api/v1/admin/users/:id/payments',
    adminRoute({
      summary: 'A user’s payments, newest first',
      params: userParams,
      querystring: paginationQuerySchema,
      response: { 200: paymentsPageSchema },
    }),
    async (request) => {
      await ledger.assertUserExists(request.params.id);
      return api.paymentsPage(request.params.id, request.query);
    },
  );

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
