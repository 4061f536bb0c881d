import {
  adminUserDetailSchema,
  adminUserPatchSchema,
  adminUserSchema,
  pageSchema,
  paginationQuery,
} from '@ecoa/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type AuthGuard, currentUser } from '../../platform/auth/guard.ts';
import { errorResponseSchema as errorResponse } from '../../platform/http/error-schema.ts';
import { routeOptions } from '../../platform/http/route-options.ts';
import type { AdminUsersService } from './admin-users.service.ts';

const userParams = z.object({ id: z.uuid('Usuário inválido.') });

/** `/api/v1/admin/users`: administrators only (checked before the input is read). */
export function registerAdminUsersRoutes(app: FastifyInstance, deps: { service: AdminUsersService; guard: AuthGuard }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { service, guard } = deps;
  const adminRoute = routeOptions(guard.requireAdmin, {
    tags: ['admin'],
    errors: { 400: errorResponse, 401: errorResponse, 403: errorResponse },
  });

  r.get(
    '/api/v1/admin/users',
    adminRoute({
      summary: 'Search users (company, full name, e-mail, CNPJ with or without the mask), newest first',
      querystring: paginationQuery().extend({ search: z.string().max(200).optional().default('') }),
      response: { 200: pageSchema(adminUserSchema) },
    }),
    async (request) => {
      const { search, page, pageSize } = request.query;
      const { items, total } = await service.list({ search, page, pageSize });
      return { items, total, page, pageSize };
    },
  );

  r.get(
    '/api/v1/admin/users/:id',
    adminRoute({
      summary: 'One user with the audit history of administrative changes, newest first',
      params: userParams,
      response: { 200: adminUserDetailSchema, 404: errorResponse },
    }),
    async (request) => service.get(request.params.id),
  );

  r.patch(
    '/api/v1/admin/users/:id',
    adminRoute({
      summary: 'Change the active flag, access level, unit prices (reais, 4 decimals) or enrichment permission',
      params: userParams,
      body: adminUserPatchSchema,
      response: { 200: adminUserSchema, 404: errorResponse, 409: errorResponse },
    }),
    async (request) => service.update(currentUser(request).id, request.params.id, request.body),
  );
}
