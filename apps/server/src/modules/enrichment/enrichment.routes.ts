import {
  adminEnrichmentListSchema,
  adminEnrichmentsQuerySchema,
  createEnrichmentSchema,
  enrichmentListSchema,
  enrichmentResultsQuerySchema,
  enrichmentResultsSchema,
  enrichmentSchema,
  enrichmentToListSchema,
  MAX_UPLOAD_BYTES,
  paginationQuery,
} from '@ecoa/shared';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type AuthGuard, currentUser } from '../../platform/auth/guard.ts';
import { AppError, validationFailed } from '../../platform/errors/app-error.ts';
import { csvLine, sendCsv } from '../../platform/http/csv.ts';
import { errorResponseSchema as errorResponse } from '../../platform/http/error-schema.ts';
import { routeOptions } from '../../platform/http/route-options.ts';
import { receiveUpload } from '../../platform/http/upload.ts';
import type { UploadStorage } from '../../platform/http/upload-storage.ts';
import type { EnrichmentService } from './enrichment.service.ts';

const idParams = z.object({ id: z.uuid('Enriquecimento inválido.') });
const pageQuery = paginationQuery();
const EXPORT_COLUMNS = [
  'cnpj',
  'encontrado',
  'razao_social',
  'nome_fantasia',
  'situacao',
  'cidade',
  'uf',
  'cnae',
  'celulares',
  'fixos',
  'email',
];

/** `/api/v1/enrichments` (the user's, with the spec's access rule) and `/api/v1/admin/enrichments`. */
export async function registerEnrichmentRoutes(
  app: FastifyInstance,
  deps: { enrichment: EnrichmentService; storage: UploadStorage; guard: AuthGuard },
): Promise<void> {
  const { enrichment, storage, guard } = deps;
  const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };

  // Multipart only in this scope (a spreadsheet upload); JSON bodies work as everywhere.
  await app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 10, fieldSize: 64 * 1024, parts: 20 },
    });
    const r = scope.withTypeProvider<ZodTypeProvider>();
    const tags = ['enrichment'];
    const userRoute = routeOptions(guard.requireUser, { tags, errors });

    r.post(
      '/api/v1/enrichments',
      {
        ...userRoute({
          summary: 'Enrich CNPJs: multipart (file, name, onlyActive) or JSON {name, cnpjs, onlyActive?}',
          consumes: ['multipart/form-data', 'application/json'],
          response: { 201: z.object({ id: z.string() }) },
        }),
        // 200,000 masked CNPJs as JSON are about 4 MB (the API's other JSON bodies stay at 1 MB).
        bodyLimit: 10 * 1024 * 1024,
      },
      async (request, reply) => {
        const user = currentUser(request);
        if (!request.isMultipart()) {
          const parsed = createEnrichmentSchema.safeParse(request.body);
          if (!parsed.success) throw validationFailed(parsed.error.issues[0]?.message);
          return reply.status(201).send(await enrichment.create(user, parsed.data));
        }
        // Checked before the upload is read: a user without access sends no file to disk.
        await enrichment.assertAllowed(user);
        const { file, fields } = await receiveUpload(request, storage);
        if (!file) throw new AppError('FILE_REQUIRED');
        try {
          const name = (fields.name ?? '').trim() || file.fileName.replace(/\.[^.]+$/, '');
          if (name.length > 120) throw new AppError('VALIDATION_FAILED', { messageKey: 'nameTooLong' });
          const created = await enrichment.createFromFile(user, {
            name,
            onlyActive: fields.onlyActive === 'true',
            filePath: file.path,
          });
          return reply.status(201).send(created);
        } finally {
          await storage.remove(file.path);
        }
      },
    );

    r.get(
      '/api/v1/enrichments',
      userRoute({ querystring: pageQuery, response: { 200: enrichmentListSchema } }),
      async (request) => enrichment.list(currentUser(request), request.query.page, request.query.pageSize),
    );

    r.get(
      '/api/v1/enrichments/base',
      userRoute({
        summary: 'The CNPJ base\'s reference month ("Base da Receita Federal de <mês/ano>")',
        response: { 200: z.object({ referenceMonth: z.string().nullable() }) },
      }),
      async (request) => ({ referenceMonth: await enrichment.baseMonth(currentUser(request)) }),
    );

    r.get(
      '/api/v1/enrichments/:id',
      userRoute({ params: idParams, response: { 200: enrichmentSchema } }),
      async (request) => enrichment.get(currentUser(request), request.params.id),
    );

    r.get(
      '/api/v1/enrichments/:id/results',
      userRoute({
        params: idParams,
        querystring: enrichmentResultsQuerySchema,
        response: { 200: enrichmentResultsSchema },
      }),
      async (request) => enrichment.results(currentUser(request), request.params.id, request.query),
    );

    r.get(
      '/api/v1/enrichments/:id/export',
      userRoute({ params: idParams, summary: 'The result as CSV (formula-safe)' }),
      async (request, reply) => {
        const { enrichment: row, pages } = await enrichment.exportSource(currentUser(request), request.params.id);
        async function* lines(): AsyncGenerator<string> {
          yield '\ufeff';
          yield csvLine(EXPORT_COLUMNS);
          for await (const page of pages) {
            let chunk = '';
            for (const r of page) {
              const of = (kind: string) =>
                r.phones
                  .filter((p) => p.kind === kind)
                  // Digits only, as the campaign export writes phones (a leading + reads as a formula).
                  .map((p) => p.e164.slice(1))
                  .join(' ');
              chunk += csvLine([
                r.cnpj,
                r.found ? 'sim' : 'não',
                r.companyName,
                r.tradeName,
                r.situation,
                r.city,
                r.uf,
                r.cnae,
                of('mobile'),
                of('landline'),
                r.email,
              ]);
            }
            yield chunk;
          }
        }
        const fileName = `${row.name.replace(/[^\p{L}\p{N} _-]+/gu, '').trim() || 'enriquecimento'}-enriquecido.csv`;
        return sendCsv(reply, fileName, lines());
      },
    );

    r.post(
      '/api/v1/enrichments/:id/list',
      userRoute({
        summary: 'A contact list of the phones found, ready for a campaign',
        params: idParams,
        body: enrichmentToListSchema,
        response: { 201: z.object({ listId: z.string() }) },
      }),
      async (request, reply) =>
        reply.status(201).send(await enrichment.toList(currentUser(request), request.params.id, request.body)),
    );
  });

  const r = app.withTypeProvider<ZodTypeProvider>();
  const adminRoute = routeOptions(guard.requireAdmin, { tags: ['admin'], errors });
  r.get(
    '/api/v1/admin/enrichments',
    adminRoute({
      summary: "Every user's enrichments, by user and period",
      querystring: adminEnrichmentsQuerySchema,
      response: { 200: adminEnrichmentListSchema },
    }),
    async (request) => enrichment.adminList(request.query),
  );
  r.get(
    '/api/v1/admin/enrichments/:id',
    adminRoute({ params: idParams, response: { 200: enrichmentSchema } }),
    async (request) => enrichment.adminGet(request.params.id),
  );
  r.get(
    '/api/v1/admin/enrichments/:id/results',
    adminRoute({
      params: idParams,
      querystring: enrichmentResultsQuerySchema,
      response: { 200: enrichmentResultsSchema },
    }),
    async (request) => enrichment.adminResults(request.params.id, request.query),
  );
}
