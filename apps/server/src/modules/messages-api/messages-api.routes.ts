import {
  messageListQuerySchema,
  messageListSchema,
  sendBatchRequestSchema,
  sendBatchResultSchema,
  sendMessageRequestSchema,
  sendMessageResultSchema,
} from '@ecoa/shared';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type AuthGuard, currentUser } from '../../platform/auth/guard.ts';
import { errorResponseSchema as errorResponse } from '../../platform/http/error-schema.ts';
import { idempotencyKey } from '../../platform/http/idempotency-key.ts';
import { routeOptions } from '../../platform/http/route-options.ts';
import type { ApiAnswer, MessagesApiService } from './messages-api.service.ts';

/** A batch of 10,000 numbers with variables and references is a few MB of JSON. */
const BATCH_BODY_LIMIT = 16 * 1024 * 1024;

const idempotency =
  'Optional `Idempotency-Key` header: a retry with the same key and body answers the first result (status and body); the same key with another body is 409 IDEMPOTENCY_KEY_REUSED. Keys are kept 24 hours: after that, the same key is a new request.';

/** A send's answer: its own status and body, or a retry's, the first request's (`Idempotency-Key`). */
const answer = (reply: FastifyReply, { status, body }: ApiAnswer<unknown>) => reply.status(status).send(body);

/** The sending API: `POST /api/v1/messages`, `POST /api/v1/messages/batch`, `GET /api/v1/messages`, `DELETE /api/v1/messages/:id`. */
export function registerMessagesApiRoutes(app: FastifyInstance, deps: { api: MessagesApiService; guard: AuthGuard }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { api, guard } = deps;
  const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 409: errorResponse };
  const sendRoute = routeOptions(guard.requireScope('messages:send'), { tags: ['messages'], errors });
  const readRoute = routeOptions(guard.requireScope('messages:read'), { tags: ['messages'] });

  r.post(
    '/api/v1/messages',
    sendRoute({
      summary: 'Send one message (SMS, flash SMS, WhatsApp template, RCS, voice torpedo), queued at once',
      description: `Same content rules, opt-outs, sending window and prices as campaigns; the credits are reserved at once (400 INSUFFICIENT_BALANCE with the shortfall). ${idempotency}`,
      body: sendMessageRequestSchema,
      response: { 202: sendMessageResultSchema },
    }),
    async (request, reply) =>
      answer(reply, await api.send(currentUser(request).id, request.body, idempotencyKey(request))),
  );

  r.post(
    '/api/v1/messages/batch',
    {
      ...sendRoute({
        summary: 'Send one content to up to 10,000 numbers: each accepted or refused on its own',
        description: `Invalid numbers, opted-out numbers and duplicates are refused per item (\`rejected\`, with the error code); the accepted ones are reserved and queued in one transaction, or none when the balance cannot cover them. ${idempotency}`,
        body: sendBatchRequestSchema,
        response: { 202: sendBatchResultSchema },
      }),
      bodyLimit: BATCH_BODY_LIMIT,
    },
    async (request, reply) =>
      answer(reply, await api.sendBatch(currentUser(request).id, request.body, idempotencyKey(request))),
  );

  r.get(
    '/api/v1/messages',
    readRoute({
      summary: 'Your messages, newest first, in keyset pages (`nextCursor`)',
      querystring: messageListQuerySchema,
      response: { 200: messageListSchema, 400: errorResponse, 401: errorResponse, 403: errorResponse },
    }),
    async (request) => {
      const q = request.query;
      return api.list(currentUser(request).id, {
        status: q.status,
        channel: q.channel,
        externalId: q.externalId,
        since: q.since ? new Date(q.since) : undefined,
        cursor: q.cursor,
        limit: q.limit,
      });
    },
  );

  r.delete(
    '/api/v1/messages/:id',
    sendRoute({
      summary: 'Cancel a message not handed to the carrier yet (queued or scheduled): its credits come back',
      description: '409 MESSAGE_NOT_CANCELABLE once it was handed to the carrier.',
      params: z.object({ id: z.uuid('Mensagem inválida.') }),
      response: { 200: z.object({ id: z.string(), status: z.literal('canceled') }), 404: errorResponse },
    }),
    async (request) => {
      await api.cancel(currentUser(request).id, request.params.id);
      return { id: request.params.id, status: 'canceled' as const };
    },
  );
}
