import { messageSchema, providerHealthSchema, testSendRequestSchema } from '@ecoa/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type AuthGuard, currentUser } from '../../platform/auth/guard.ts';
import { errorResponseSchema as errorResponse } from '../../platform/http/error-schema.ts';
import { idempotencyHeaderDoc, idempotencyKey } from '../../platform/http/idempotency-key.ts';
import { routeOptions } from '../../platform/http/route-options.ts';
import type { ChannelsService } from './channels.service.ts';

/** `/api/v1/channels/test-send`, `/api/v1/messages/:id`, `/api/v1/admin/channels`. */
export function registerChannelsRoutes(app: FastifyInstance, deps: { channels: ChannelsService; guard: AuthGuard }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { channels, guard } = deps;
  const userRoute = routeOptions(guard.requireUser, { tags: ['channels'] });
  const readRoute = routeOptions(guard.requireScope('messages:read'), { tags: ['channels'] });
  const adminRoute = routeOptions(guard.requireAdmin, { tags: ['admin'] });

  r.post(
    '/api/v1/channels/test-send',
    userRoute({
      summary: 'Send one message to one number through the real adapter, paid in credits of the channel',
      description: idempotencyHeaderDoc.description,
      body: testSendRequestSchema,
      response: {
        200: z.object({ id: z.string() }).describe('A retry with the same Idempotency-Key: the first message'),
        201: z.object({ id: z.string() }),
        400: errorResponse,
        401: errorResponse,
        409: errorResponse,
      },
    }),
    async (request, reply) => {
      const { id, replayed } = await channels.testSend(currentUser(request).id, request.body, {
        idempotencyKey: idempotencyKey(request),
      });
      return reply.status(replayed ? 200 : 201).send({ id });
    },
  );

  r.get(
    '/api/v1/messages/:id',
    readRoute({
      summary: 'A message: its status, the reason of a failure, and its history (receipts, calls, reads)',
      params: z.object({ id: z.uuid('Mensagem inválida.') }),
      response: { 200: messageSchema, 401: errorResponse, 404: errorResponse },
    }),
    async (request) => channels.getMessage(currentUser(request).id, request.params.id),
  );

  r.get(
    '/api/v1/admin/channels',
    adminRoute({
      summary: "Each provider's health: simulator or real, connected, TPS in use, in flight, last error",
      response: { 200: z.array(providerHealthSchema), 401: errorResponse, 403: errorResponse },
    }),
    async () => channels.health(),
  );
}
