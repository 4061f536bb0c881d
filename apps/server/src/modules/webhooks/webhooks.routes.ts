import {
  balanceThresholdsSchema,
  webhookDeliveryPageSchema,
  webhookEndpointCreateSchema,
  webhookEndpointPatchSchema,
  webhookEndpointSchema,
  webhookEndpointWithSecretSchema,
  webhookReplaySinceSchema,
} from '@ecoa/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type AuthGuard, currentUser } from '../../platform/auth/guard.ts';
import { routeOptions } from '../../platform/http/route-options.ts';
import type { WebhooksService } from './webhooks.service.ts';

const idParams = z.object({ id: z.uuid() });

/** `/api/v1/webhook-endpoints…`, `/api/v1/webhook-deliveries/:id/replay`, `/api/v1/balance-alerts`. */
export async function registerWebhooksRoutes(
  app: FastifyInstance,
  deps: { webhooks: WebhooksService; guard: AuthGuard },
): Promise<void> {
  const { webhooks, guard } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const manageRoute = routeOptions(guard.requireScope('webhooks:manage'), { tags: ['webhooks'] });

  r.post(
    '/api/v1/webhook-endpoints',
    manageRoute({
      summary: 'Register an endpoint; its signing secret is in this answer only',
      body: webhookEndpointCreateSchema,
      response: { 201: webhookEndpointWithSecretSchema },
    }),
    async (request, reply) => reply.code(201).send(await webhooks.create(currentUser(request).id, request.body)),
  );

  r.get(
    '/api/v1/webhook-endpoints',
    manageRoute({
      summary: "The account's endpoints (no secrets)",
      response: { 200: z.array(webhookEndpointSchema) },
    }),
    async (request) => webhooks.list(currentUser(request).id),
  );

  r.get(
    '/api/v1/webhook-endpoints/:id',
    manageRoute({ summary: 'One endpoint', params: idParams, response: { 200: webhookEndpointSchema } }),
    async (request) => webhooks.get(currentUser(request).id, request.params.id),
  );

  r.patch(
    '/api/v1/webhook-endpoints/:id',
    manageRoute({
      summary: 'Change the URL, events, description, or enable/disable',
      params: idParams,
      body: webhookEndpointPatchSchema,
      response: { 200: webhookEndpointSchema },
    }),
    async (request) => webhooks.update(currentUser(request).id, request.params.id, request.body),
  );

  r.delete(
    '/api/v1/webhook-endpoints/:id',
    manageRoute({ summary: 'Delete an endpoint and its log', params: idParams }),
    async (request, reply) => {
      await webhooks.remove(currentUser(request).id, request.params.id);
      return reply.code(204).send();
    },
  );

  r.post(
    '/api/v1/webhook-endpoints/:id/rotate-secret',
    manageRoute({
      summary: 'A new secret; the old one keeps signing (a second signature) for 24 h',
      params: idParams,
      response: { 200: webhookEndpointWithSecretSchema },
    }),
    async (request) => webhooks.rotateSecret(currentUser(request).id, request.params.id),
  );

  r.post(
    '/api/v1/webhook-endpoints/:id/test',
    manageRoute({
      summary: 'Send a `webhook.test` event to this endpoint',
      params: idParams,
      response: { 202: z.object({ eventId: z.string() }) },
    }),
    async (request, reply) => reply.code(202).send(await webhooks.sendTest(currentUser(request).id, request.params.id)),
  );

  r.get(
    '/api/v1/webhook-endpoints/:id/deliveries',
    manageRoute({
      summary: 'The delivery log, newest first (keyset pages: pass `nextCursor` as `cursor`)',
      params: idParams,
      querystring: z.object({
        cursor: z.string().max(200).optional(),
        limit: z.coerce.number().int().min(1).max(100).default(20),
      }),
      response: { 200: webhookDeliveryPageSchema },
    }),
    async (request) =>
      webhooks.deliveries(currentUser(request).id, request.params.id, request.query.cursor, request.query.limit),
  );

  r.post(
    '/api/v1/webhook-endpoints/:id/replay',
    manageRoute({
      summary: 'Send again every delivery of this endpoint that failed since a date',
      params: idParams,
      body: webhookReplaySinceSchema,
      response: { 202: z.object({ replayed: z.number() }) },
    }),
    async (request, reply) =>
      reply
        .code(202)
        .send(
          await webhooks.replayFailedSince(currentUser(request).id, request.params.id, new Date(request.body.since)),
        ),
  );

  r.post(
    '/api/v1/webhook-deliveries/:id/replay',
    manageRoute({ summary: 'Send one delivery again (same event id)', params: idParams }),
    async (request, reply) => {
      await webhooks.replay(currentUser(request).id, request.params.id);
      return reply.code(202).send();
    },
  );

  r.get(
    '/api/v1/balance-alerts',
    manageRoute({
      summary: '`balance.low` thresholds per credit type',
      response: { 200: balanceThresholdsSchema },
    }),
    async (request) => webhooks.balanceThresholds(currentUser(request).id),
  );

  r.put(
    '/api/v1/balance-alerts',
    manageRoute({
      summary: 'Set (or clear with null) the `balance.low` threshold of credit types',
      body: balanceThresholdsSchema,
      response: { 200: balanceThresholdsSchema },
    }),
    async (request) => webhooks.setBalanceThresholds(currentUser(request).id, request.body),
  );
}
