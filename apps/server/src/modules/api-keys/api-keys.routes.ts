import { apiKeyCreatedSchema, apiKeySchema, createApiKeySchema } from '@ecoa/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type AuthGuard, currentUser } from '../../platform/auth/guard.ts';
import { errorResponseSchema as errorResponse } from '../../platform/http/error-schema.ts';
import { routeOptions } from '../../platform/http/route-options.ts';
import type { ApiKeysService } from './api-keys.service.ts';

/**
 * `/api/v1/api-keys`: a signed-in session's own keys. Session-only (`requireUser`): a key can
 * neither mint nor list nor revoke keys.
 */
export function registerApiKeysRoutes(app: FastifyInstance, deps: { apiKeys: ApiKeysService; guard: AuthGuard }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { apiKeys, guard } = deps;
  const userRoute = routeOptions(guard.requireUser, {
    tags: ['api-keys'],
    errors: { 401: errorResponse, 403: errorResponse },
  });

  r.post(
    '/api/v1/api-keys',
    userRoute({
      summary: 'Create an API key with a name and scopes; the key is in this answer only',
      body: createApiKeySchema,
      response: { 201: apiKeyCreatedSchema, 400: errorResponse },
    }),
    async (request, reply) => reply.status(201).send(await apiKeys.create(currentUser(request).id, request.body)),
  );

  r.get(
    '/api/v1/api-keys',
    userRoute({
      summary: 'The live API keys (name, prefix, scopes, created, last used; never the key)',
      response: { 200: z.object({ items: z.array(apiKeySchema) }) },
    }),
    async (request) => ({ items: await apiKeys.list(currentUser(request).id) }),
  );

  r.delete(
    '/api/v1/api-keys/:id',
    userRoute({
      summary: 'Revoke an API key at once (the next request with it is 401)',
      params: z.object({ id: z.uuid() }),
      response: { 204: z.null(), 404: errorResponse },
    }),
    async (request, reply) => {
      await apiKeys.revoke(currentUser(request).id, request.params.id);
      return reply.status(204).send(null);
    },
  );
}
