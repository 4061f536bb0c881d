import {
  adminAdjustmentResultSchema,
  adminAdjustmentSchema,
  adminPaymentResultSchema,
  adminPaymentSchema,
  CREDIT_TYPES,
  type CreditType,
  centavosToReais,
  creditTransferResultSchema,
  creditTransferSchema,
  type DashboardBalance,
  dashboardBalanceSchema,
  type LedgerEntryDto,
  ledgerEntrySchema,
  type PaymentDto,
  pageSchema,
  paginationQuerySchema,
  paymentSchema,
  paymentStatusSchema,
  reaisToCentavos,
  tenThousandthsToReais,
} from '@ecoa/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type AuthGuard, currentUser } from '../../platform/auth/guard.ts';
import { errorResponseSchema as errorResponse } from '../../platform/http/error-schema.ts';
import { idempotencyHeaderDoc, idempotencyKey } from '../../platform/http/idempotency-key.ts';
import type { BalanceAmounts } from './ledger.repository.ts';
import type { LedgerEntryRow, PaymentRow } from './ledger.schema.ts';
import type { Balances, LedgerService } from './ledger.service.ts';

export type LedgerRoutesDeps = { ledger: LedgerService; guard: AuthGuard };

/** An amount of `type` as the API shows it: reais for BALANCE, units for credit types. */
const show = (type: CreditType, amount: number) => (type === 'BALANCE' ? centavosToReais(amount) : amount);
const showBalance = (type: CreditType, b: BalanceAmounts) => ({
  available: show(type, b.available),
  reserved: show(type, b.reserved),
});

export function toDashboardBalance(balances: Balances): DashboardBalance {
  return {
    money: centavosToReais(balances.BALANCE.available),
    credits: Object.fromEntries(
      CREDIT_TYPES.map((t) => [t, showBalance(t, balances[t])]),
    ) as DashboardBalance['credits'],
  };
}

export function toEntryDto(e: LedgerEntryRow): LedgerEntryDto {
  return {
    id: e.id,
    type: e.type,
    kind: e.kind,
    amount: show(e.type, e.amount),
    balanceAfter: show(e.type, e.balanceAfter),
    reservedDelta: show(e.type, e.reservedDelta),
    reservedAfter: show(e.type, e.reservedAfter),
    referenceType: e.referenceType,
    referenceId: e.referenceId,
    actorUserId: e.actorUserId,
    reason: e.reason,
    createdAt: e.createdAt.toISOString(),
  };
}

export function toPaymentDto(p: PaymentRow): PaymentDto {
  return {
    id: p.id,
    amount: centavosToReais(p.amountCentavos),
    method: p.method,
    provider: p.provider,
    status: p.status,
    reason: p.reason,
    createdBy: p.createdBy,
    refunded: centavosToReais(p.refundedCentavos),
    createdAt: p.createdAt.toISOString(),
    completedAt: p.completedAt ? p.completedAt.toISOString() : null,
  };
}

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
  const security = [{ bearer: [] }];
  const adminErrors = { 401: errorResponse, 403: errorResponse, 404: errorResponse };

  /** A page of a user's ledger or payments as the API shows them (the user's own, or an administrator's view). */
  const entriesPage = async (userId: string, query: z.infer<typeof entriesQuery>) => {
    const page = await ledger.listEntries(userId, query);
    return { ...page, items: page.items.map(toEntryDto) };
  };
  const paymentsPage = async (userId: string, query: z.infer<typeof paginationQuerySchema>) => {
    const page = await ledger.listPayments(userId, query);
    return { ...page, items: page.items.map(toPaymentDto) };
  };

  r.get(
    '/api/v1/dashboard/balance',
    {
      onRequest: guard.requireUser,
      schema: {
        tags: ['ledger'],
        summary: 'Money (reais) and every credit type (available and reserved) of the signed-in user',
        security,
        response: { 200: dashboardBalanceSchema, 401: errorResponse },
      },
    },
    async (request) => toDashboardBalance(await ledger.getBalances(currentUser(request).id)),
  );

  r.post(
    '/api/v1/credits/transfer',
    {
      onRequest: guard.requireUser,
      schema: {
        tags: ['ledger'],
        summary: 'Turn money into credits at the user’s unit price (atomic)',
        description: `amount: whole credits (> 0); type: any credit type but BALANCE. Errors: 400 INVALID_QUANTITY "Quantidade inválida" (the cost, rounded up to the centavo, exceeds the balance), 400 WHATSAPP_MINIMUM, 400 PRICE_NOT_CONFIGURED. ${idempotencyHeaderDoc.description}`,
        security,
        body: creditTransferSchema,
        response: { 200: creditTransferResultSchema, 400: errorResponse, 401: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      const result = await ledger.transfer({
        userId: currentUser(request).id,
        type: request.body.type,
        quantity: request.body.amount,
        idempotencyKey: prefixed('transfer', idempotencyKey(request)),
      });
      return {
        transferId: result.transferId,
        type: result.type,
        amount: result.quantity,
        unitPrice: tenThousandthsToReais(result.unitPrice),
        cost: centavosToReais(result.costCentavos),
        money: centavosToReais(result.money.available),
        credits: result.credits,
      };
    },
  );

  r.get(
    '/api/v1/ledger',
    {
      onRequest: guard.requireUser,
      schema: {
        tags: ['ledger'],
        summary: 'The signed-in user’s ledger, newest first',
        security,
        querystring: entriesQuery,
        response: { 200: entriesPageSchema, 401: errorResponse },
      },
    },
    async (request) => entriesPage(currentUser(request).id, request.query),
  );

  r.get(
    '/api/v1/payments',
    {
      onRequest: guard.requireUser,
      schema: {
        tags: ['ledger'],
        summary: 'The signed-in user’s payments, newest first',
        security,
        querystring: paginationQuerySchema,
        response: { 200: paymentsPageSchema, 401: errorResponse },
      },
    },
    async (request) => paymentsPage(currentUser(request).id, request.query),
  );

  r.get(
    '/api/v1/payments/:id',
    {
      onRequest: guard.requireUser,
      schema: {
        tags: ['ledger'],
        summary: 'Where one of the signed-in user’s payments stands (another user’s: 404)',
        description:
          'PENDING until the card processor confirms it (webhook), then SUCCEEDED (the money is credited), FAILED or CANCELED; REFUNDED later. The web app polls it when a card checkout sends the customer back.',
        security,
        params: z.object({ id: z.uuid() }),
        response: { 200: paymentStatusSchema, 400: errorResponse, 401: errorResponse, 404: errorResponse },
      },
    },
    async (request) => {
      const payment = await ledger.ownPayment(currentUser(request).id, request.params.id);
      return { id: payment.id, status: payment.status, amount: centavosToReais(payment.amountCentavos) };
    },
  );

  // --- administrators -------------------------------------------------------------------

  r.get(
    '/api/v1/admin/users/:id/balance',
    {
      onRequest: guard.requireAdmin,
      schema: {
        tags: ['admin'],
        summary: 'A user’s balances (same shape as the dashboard balance)',
        security,
        params: userParams,
        response: { 200: dashboardBalanceSchema, ...adminErrors },
      },
    },
    async (request) => {
      await ledger.assertUserExists(request.params.id);
      return toDashboardBalance(await ledger.getBalances(request.params.id));
    },
  );

  r.get(
    '/api/v1/admin/users/:id/ledger',
    {
      onRequest: guard.requireAdmin,
      schema: {
        tags: ['admin'],
        summary: 'A user’s ledger, newest first',
        security,
        params: userParams,
        querystring: entriesQuery,
        response: { 200: entriesPageSchema, ...adminErrors },
      },
    },
    async (request) => {
      await ledger.assertUserExists(request.params.id);
      return entriesPage(request.params.id, request.query);
    },
  );

  r.get(
    '/api/v1/admin/users/:id/payments',
    {
      onRequest: guard.requireAdmin,
      schema: {
        tags: ['admin'],
        summary: 'A user’s payments, newest first',
        security,
        params: userParams,
        querystring: paginationQuerySchema,
        response: { 200: paymentsPageSchema, ...adminErrors },
      },
    },
    async (request) => {
      await ledger.assertUserExists(request.params.id);
      return paymentsPage(request.params.id, request.query);
    },
  );

  r.post(
    '/api/v1/admin/users/:id/payments',
    {
      onRequest: guard.requireAdmin,
      schema: {
        tags: ['admin'],
        summary: 'Record a MANUAL or PIX payment (amount in reais); credited at once',
        description: idempotencyHeaderDoc.description,
        security,
        params: userParams,
        body: adminPaymentSchema,
        response: {
          200: adminPaymentResultSchema.describe('A retry with the same Idempotency-Key: the first result'),
          201: adminPaymentResultSchema,
          400: errorResponse,
          ...adminErrors,
          409: errorResponse,
        },
      },
    },
    async (request, reply) => {
      const result = await ledger.recordManualPayment({
        userId: request.params.id,
        amountCentavos: reaisToCentavos(request.body.amount)!,
        method: request.body.method,
        reason: request.body.reason,
        actorUserId: currentUser(request).id,
        idempotencyKey: prefixed('admin-payment', idempotencyKey(request)),
      });
      return reply.status(result.replayed ? 200 : 201).send({
        payment: toPaymentDto(result.payment),
        entry: result.entry ? toEntryDto(result.entry) : null,
        money: centavosToReais(await ledger.getMoneyBalanceCentavos(request.params.id)),
      });
    },
  );

  r.post(
    '/api/v1/admin/users/:id/adjustments',
    {
      onRequest: guard.requireAdmin,
      schema: {
        tags: ['admin'],
        summary: 'Adjust one balance with a reason (signed; reais for BALANCE, units otherwise)',
        description: `Never below zero: 400 ADJUSTMENT_BELOW_ZERO. ${idempotencyHeaderDoc.description}`,
        security,
        params: userParams,
        body: adminAdjustmentSchema,
        response: {
          200: adminAdjustmentResultSchema.describe('A retry with the same Idempotency-Key: the first result'),
          201: adminAdjustmentResultSchema,
          400: errorResponse,
          ...adminErrors,
          409: errorResponse,
        },
      },
    },
    async (request, reply) => {
      const { type, amount, reason } = request.body;
      const units = type === 'BALANCE' ? reaisToCentavos(amount)! : amount;
      const result = await ledger.adjust({
        userId: request.params.id,
        type,
        amount: units,
        reason,
        actorUserId: currentUser(request).id,
        idempotencyKey: prefixed('admin-adjustment', idempotencyKey(request)),
      });
      return reply
        .status(result.replayed ? 200 : 201)
        .send({ entry: toEntryDto(result.entry), balance: showBalance(type, result.balance) });
    },
  );
}
