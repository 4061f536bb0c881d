import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { withExamples } from './openapi/examples.ts';
import { webhooksSection } from './openapi/webhooks.ts';

/**
 * OpenAPI 3.1 generated from the route schemas, with the public routes' examples and the events
 * posted to webhooks (`webhooks`); UI at /api/docs, document at /api/docs/json. `npm run
 * api:generate` writes it and the typed client's types (packages/api-client) from it.
 */
export async function registerApiDocs(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Ecoa API', description: 'Bulk multichannel messaging platform', version: '1.0.0' },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      },
      webhooks: webhooksSection(),
    },
    transform: withExamples(jsonSchemaTransform),
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
}

/** The document as `npm run api:generate` writes it (packages/api-client/openapi.json). */
export function apiDocumentText(app: FastifyInstance): string {
  return `${JSON.stringify(app.swagger(), null, 2)}\n`;
}
