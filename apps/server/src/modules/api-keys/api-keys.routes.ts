import { apiKeyCreatedSchema, apiKeySchema, createApiKeySchema } from '@ecoa/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AuthGuard } from '../../platform/auth/guard.ts';
import { errorResponseSchema as errorResponse } from '../../platform/http/error-schema.ts';
import { ownedRoutes } from '../../platform/http/owned-routes.ts';
import { routeOptions } from '../../platform/http/route-options.ts';
import type { ApiKeysService } from './api-keys.service.ts';

/**
 * `/api/v1/api-keys`: a signed-in session's own keys. Session-only (`requireUser`): a key can
 * neither mint nor list nor revoke keys.
 */
export function registerApiKeysRoutes(app: FastifyInstance, deps: { apiKeys: ApiKeysService; guard: AuthGuard }) {
  const { apiKeys, guard } = deps;
  const userRoute = routeOptions(guard.requireUser, {
    tags: ['api-keys'],
    errors: { 401: errorResponse, 403: errorResponse },
  });

  const key = ownedRoutes(app, userRoute, { path: '/api/v1/api-keys' });
  key.create(
    {
      summary: 'Create an API key with a name and scopes; the key is in this answer only',
      body: createApiKeySchema,
      response: apiKeyCreatedSchema,
      errors: { 400: errorResponse },
    },
    (userId, body) => apiKeys.create(userId, body),
  );
  key.list(
    {
      summary: 'The live API keys (name, prefix, scopes, created, last used; never the key)',
      response: z.object({ items: z.array(apiKeySchema) }),
    },
    async (userId) => ({ items: await apiKeys.list(userId) }),
  );
  key.remove(
    {
      summary: 'Revoke an API key at once (the next request with it is 401)',
      errors: { 404: errorResponse },
    },
    (userId, id) => apiKeys.revoke(userId, id),
  );
}
