import {
  type ColumnMapping,
  columnMappingSchema,
  contactListSchema,
  MAX_UPLOAD_BYTES,
  namedPageQuerySchema,
  pageSchema,
  paginationQuery,
} from '@ecoa/shared';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type AuthGuard, currentUser } from '../../platform/auth/guard.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { sendCsv } from '../../platform/http/csv.ts';
import { ownedRoutes } from '../../platform/http/owned-routes.ts';
import { routeOptions } from '../../platform/http/route-options.ts';
import { receiveUpload } from '../../platform/http/upload.ts';
import type { UploadStorage } from '../../platform/http/upload-storage.ts';
import type { ListsService } from './lists.service.ts';

const idParams = z.object({ id: z.uuid() });

function parseMapping(raw: string | undefined): ColumnMapping | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new AppError('INVALID_MAPPING');
  }
  const parsed = columnMappingSchema.safeParse(json);
  if (!parsed.success) throw new AppError('INVALID_MAPPING');
  return parsed.data;
}

export type ListsRoutesDeps = {
  lists: ListsService;
  storage: UploadStorage;
  guard: AuthGuard;
};

export async function registerListsRoutes(app: FastifyInstance, deps: ListsRoutesDeps): Promise<void> {
  const { lists, storage, guard } = deps;
  // Multipart only in this scope: the rest of the API keeps its 1 MB JSON bodies.
  await app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 10, fieldSize: 64 * 1024, parts: 20 },
    });
    const r = scope.withTypeProvider<ZodTypeProvider>();
    const tags = ['lists'];
    const writeRoute = routeOptions(guard.requireScope('lists:write'), { tags });
    const userRoute = routeOptions(guard.requireUser, { tags });

    r.post(
      '/api/v1/lists',
      writeRoute({
        summary: 'Upload a CSV/XLSX (multipart: file, name, optional mapping JSON) and start its import',
        consumes: ['multipart/form-data'],
        response: { 201: z.object({ id: z.string() }) },
      }),
      async (request, reply) => {
        const user = currentUser(request);
        const { file, fields } = await receiveUpload(request, storage);
        if (!file) throw new AppError('FILE_REQUIRED');
        try {
          const name = (fields.name ?? '').trim() || file.fileName.replace(/\.[^.]+$/, '');
          if (name.length > 120) throw new AppError('LIST_NAME_TOO_LONG');
          const mapping = parseMapping(fields.mapping);
          const created = await lists.create({ userId: user.id, name, file, mapping });
          return reply.status(201).send(created);
        } catch (err) {
          await storage.remove(file.path);
          throw err;
        }
      },
    );

    r.post(
      '/api/v1/lists/preview',
      writeRoute({
        summary: 'The mapping step: first rows, columns and the detected mapping of a file (or its beginning)',
        consumes: ['multipart/form-data'],
      }),
      async (request) => {
        currentUser(request);
        const { file, fields } = await receiveUpload(request, storage);
        if (!file) throw new AppError('FILE_REQUIRED');
        return lists.preview(file, { sampleOnly: fields.partial === 'true' });
      },
    );

    // The page of lists is the web app's (a session); a list itself takes the `lists:write` scope.
    const userLists = ownedRoutes(scope, userRoute, { path: '/api/v1/lists', params: idParams });
    const list = ownedRoutes(scope, writeRoute, { path: '/api/v1/lists', params: idParams });
    userLists.list(
      {
        summary: 'The user’s lists, newest first (`q`: names containing it)',
        querystring: namedPageQuerySchema,
        response: pageSchema(contactListSchema),
      },
      (userId, { page, pageSize, q }) => lists.list(userId, page, pageSize, q),
    );
    list.get({ summary: 'A list: status, import progress, counts', response: contactListSchema }, (userId, id) =>
      lists.get(userId, id),
    );
    list.update(
      {
        summary: 'Rename a list',
        body: z.object({ name: z.string().max(120, 'O nome da lista pode ter até 120 caracteres.') }),
        response: contactListSchema,
      },
      (userId, id, body) => lists.rename(userId, id, body.name),
    );
    list.remove({ summary: 'Delete a list (cancels a running import)' }, (userId, id) => lists.remove(userId, id));

    r.get(
      '/api/v1/lists/:id/contacts',
      userRoute({
        summary: 'The list’s valid contacts, by phone',
        params: idParams,
        querystring: paginationQuery({ pageSize: 50, maxPageSize: 200 }),
      }),
      async (request) =>
        lists.contacts(currentUser(request).id, request.params.id, request.query.page, request.query.pageSize),
    );

    r.get(
      '/api/v1/lists/:id/export',
      userRoute({
        summary: 'Download the valid contacts or the invalid rows (with the reason) as CSV',
        params: idParams,
        querystring: z.object({ kind: z.enum(['valid', 'invalid']).default('valid') }),
      }),
      async (request, reply) => {
        const { fileName, lines } = await lists.export(currentUser(request).id, request.params.id, request.query.kind);
        return sendCsv(reply, fileName, lines);
      },
    );
  });
}
