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
import { ownedRoutes } from '../../platform/http/owned-routes.ts';
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

  const endpoint = ownedRoutes(app, manageRoute, { path: '/api/v1/webhook-endpoints', params: idParams });
  endpoint.create(
    {
      summary: 'Register an endpoint; its signing secret is in this answer only',
      body: webhookEndpointCreateSchema,
      response: webhookEndpointWithSecretSchema,
    },
    (userId, body) => webhooks.create(userId, body),
  );
  endpoint.list(
    { summary: "The account's endpoints (no secrets)", response: z.array(webhookEndpointSchema) },
    (userId) => webhooks.list(userId),
  );
  endpoint.get({ summary: 'One endpoint', response: webhookEndpointSchema }, (userId, id) => webhooks.get(userId, id));
  endpoint.update(
    {
      summary: 'Change the URL, events, description, or enable/disable',
      body: webhookEndpointPatchSchema,
      response: webhookEndpointSchema,
    },
    (userId, id, body) => webhooks.update(userId, id, body),
  );
  endpoint.remove({ summary: 'Delete an endpoint and its log' }, (userId, id) => webhooks.remove(userId, id));
  endpoint.act(
    {
      summary: 'A new secret; the old one keeps signing (a second signature) for 24 h',
      below: '/rotate-secret',
      response: webhookEndpointWithSecretSchema,
    },
    (userId, id) => webhooks.rotateSecret(userId, id),
  );
  endpoint.act(
    {
      summary: 'Send a `webhook.test` event to this endpoint',
      below: '/test',
      status: 202,
      response: z.object({ eventId: z.string() }),
    },
    (userId, id) => webhooks.sendTest(userId, id),
  );
  endpoint.get(
    {
      summary: 'The delivery log, newest first (keyset pages: pass `nextCursor` as `cursor`)',
      below: '/deliveries',
      querystring: z.object({
        cursor: z.string().max(200).optional(),
        limit: z.coerce.number().int().min(1).max(100).default(20),
      }),
      response: webhookDeliveryPageSchema,
    },
    (userId, id, query) => webhooks.deliveries(userId, id, query.cursor, query.limit),
  );
  endpoint.act(
    {
      summary: 'Send again every delivery of this endpoint that failed since a date',
      below: '/replay',
      status: 202,
      body: webhookReplaySinceSchema,
      response: z.object({ replayed: z.number() }),
    },
    (userId, id, body) => webhooks.replayFailedSince(userId, id, new Date(body.since)),
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
