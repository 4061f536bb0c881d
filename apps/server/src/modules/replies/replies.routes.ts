import {
  repliesFilterSchema,
  repliesPageSchema,
  repliesQuerySchema,
  replyAnswerSchema,
  replyHandledSchema,
  replySchema,
} from '@ecoa/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type AuthGuard, currentUser } from '../../platform/auth/guard.ts';
import { sendCsv } from '../../platform/http/csv.ts';
import { errorResponseSchema as errorResponse } from '../../platform/http/error-schema.ts';
import { idempotencyHeaderDoc, idempotencyKey } from '../../platform/http/idempotency-key.ts';
import { ownedRoutes } from '../../platform/http/owned-routes.ts';
import { routeOptions } from '../../platform/http/route-options.ts';
import type { RepliesService } from './replies.service.ts';

const idParams = z.object({ id: z.uuid('Resposta inválida.') });

/** `/api/v1/replies…`: the inbox (list, CSV), handled or not, and the answer. */
export function registerRepliesRoutes(app: FastifyInstance, deps: { replies: RepliesService; guard: AuthGuard }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { replies, guard } = deps;
  const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse };
  const readRoute = routeOptions(guard.requireScope('messages:read'), { tags: ['replies'], errors });
  const sendRoute = routeOptions(guard.requireScope('messages:send'), { tags: ['replies'], errors });

  const inbox = ownedRoutes(app, readRoute, { path: '/api/v1/replies', params: idParams });
  inbox.list(
    {
      summary: 'Incoming replies (SMS, WhatsApp, RCS), newest first, in keyset pages (`nextCursor`)',
      querystring: repliesQuerySchema,
      response: repliesPageSchema,
    },
    (userId, query) => replies.list(userId, query),
  );

  r.get(
    '/api/v1/replies.csv',
    readRoute({
      summary: 'The replies with the same filters as a CSV file (`;`, UTF-8), newest first',
      querystring: repliesFilterSchema,
      response: {},
    }),
    async (request, reply) => sendCsv(reply, 'respostas.csv', replies.csv(currentUser(request).id, request.query)),
  );

  inbox.update(
    {
      summary: 'Marks a reply handled (or not handled again)',
      body: replyHandledSchema,
      response: replySchema,
      errors: { 404: errorResponse },
    },
    (userId, id, body) => replies.setHandled(userId, id, body.handled),
  );

  r.post(
    '/api/v1/replies/:id/answer',
    sendRoute({
      summary: 'Answers an SMS reply by SMS, or a WhatsApp one inside its 24-hour window; paid like a test send',
      description: idempotencyHeaderDoc.description,
      params: idParams,
      body: replyAnswerSchema,
      response: {
        200: z.object({ id: z.string() }).describe('A retry with the same Idempotency-Key: the first answer'),
        201: z.object({ id: z.string() }).describe("The answer's message (GET /api/v1/messages/:id)"),
        402: errorResponse,
        404: errorResponse,
        409: errorResponse,
      },
    }),
    async (request, reply) => {
      const { id, replayed } = await replies.answer(currentUser(request).id, request.params.id, request.body.text, {
        idempotencyKey: idempotencyKey(request),
      });
      return reply.status(replayed ? 200 : 201).send({ id });
    },
  );
}
