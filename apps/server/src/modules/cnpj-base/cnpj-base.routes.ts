import { cnpjBaseImportRequestSchema, cnpjBaseSchema } from '@ecoa/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuthGuard } from '../../platform/auth/guard.ts';
import { errorResponseSchema as errorResponse } from '../../platform/http/error-schema.ts';
import { routeOptions } from '../../platform/http/route-options.ts';
import type { CnpjBaseService } from './cnpj-base.service.ts';

/** `/api/v1/admin/cnpj-base`: the live CNPJ base and its refresh (administrators). */
export function registerCnpjBaseRoutes(app: FastifyInstance, deps: { service: CnpjBaseService; guard: AuthGuard }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { service, guard } = deps;
  const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 409: errorResponse };
  const adminRoute = routeOptions(guard.requireAdmin, { tags: ['cnpj base'], errors });

  r.get(
    '/api/v1/admin/cnpj-base',
    adminRoute({
      summary: 'The live CNPJ base and the last import',
      response: { 200: cnpjBaseSchema },
    }),
    async () => service.info(),
  );

  r.post(
    '/api/v1/admin/cnpj-base/import',
    adminRoute({
      summary: "Refresh the CNPJ base from a folder of the Receita's files on the server",
      body: cnpjBaseImportRequestSchema,
      response: { 202: z.object({ id: z.string() }) },
    }),
    async (request, reply) => reply.status(202).send(await service.requestImport(request.body)),
  );
}
