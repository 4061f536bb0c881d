import {
  MAX_UPLOAD_BYTES,
  OPT_OUT_ADD_MAX,
  optOutSchema,
  optOutSummarySchema,
  pageSchema,
  paginationQuery,
} from '@ecoa/shared';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type AuthGuard, currentUser } from '../../platform/auth/guard.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { ownedRoutes } from '../../platform/http/owned-routes.ts';
import { routeOptions } from '../../platform/http/route-options.ts';
import { receiveUpload } from '../../platform/http/upload.ts';
import type { UploadStorage } from '../../platform/http/upload-storage.ts';
import type { OptOutsService } from './opt-outs.service.ts';

export type OptOutsRoutesDeps = {
  optOuts: OptOutsService;
  storage: UploadStorage;
  guard: AuthGuard;
};

/** `/api/v1/opt-outs`: the account-wide "do not send" list. */
export async function registerOptOutsRoutes(app: FastifyInstance, deps: OptOutsRoutesDeps): Promise<void> {
  const { optOuts, storage, guard } = deps;
  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 5, parts: 10 } });
    const r = scope.withTypeProvider<ZodTypeProvider>();
    const userRoute = routeOptions(guard.requireUser, { tags: ['opt-outs'] });

    ownedRoutes(scope, userRoute, { path: '/api/v1/opt-outs' }).list(
      {
        summary: 'List or search the opted-out numbers, newest first',
        querystring: paginationQuery().extend({ search: z.string().max(40).default('') }),
        response: pageSchema(optOutSchema),
      },
      (userId, { search, page, pageSize }) => optOuts.list(userId, search, page, pageSize),
    );

    r.post(
      '/api/v1/opt-outs',
      userRoute({
        summary: 'Add numbers (any Brazilian spelling) to the opt-out list',
        body: z.object({
          phones: z
            .array(z.string().max(60))
            .min(1, 'Informe ao menos um número.')
            .max(OPT_OUT_ADD_MAX, 'Envie até 1.000 números por vez (ou um arquivo).'),
        }),
        response: { 200: optOutSummarySchema },
      }),
      async (request) => optOuts.add(currentUser(request).id, request.body.phones),
    );

    r.post(
      '/api/v1/opt-outs/upload',
      userRoute({
        summary: 'Add the numbers of a CSV/XLSX file',
        consumes: ['multipart/form-data'],
        response: { 200: optOutSummarySchema },
      }),
      async (request) => {
        const user = currentUser(request);
        const { file } = await receiveUpload(request, storage);
        if (!file) throw new AppError('FILE_REQUIRED');
        return optOuts.upload(user.id, file);
      },
    );

    r.delete(
      '/api/v1/opt-outs/:phone',
      userRoute({
        summary: 'Remove a number from the opt-out list',
        params: z.object({ phone: z.string().max(60) }),
      }),
      async (request, reply) => {
        await optOuts.remove(currentUser(request).id, request.params.phone);
        return reply.status(204).send();
      },
    );
  });
}
