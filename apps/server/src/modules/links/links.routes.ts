import {
  adminLinkListSchema,
  adminLinkPatchSchema,
  adminLinkSchema,
  adminTrackedLinkListSchema,
  adminTrackedLinkSchema,
  linkInputSchema,
  linkListSchema,
  linkPatchSchema,
  linkSchema,
  linkStatsQuerySchema,
  linkStatsSchema,
  paginationQuery,
} from '@ecoa/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type AuthGuard, currentUser } from '../../platform/auth/guard.ts';
import { csvLine, sendCsv } from '../../platform/http/csv.ts';
import { errorResponseSchema as errorResponse } from '../../platform/http/error-schema.ts';
import { routeOptions } from '../../platform/http/route-options.ts';
import type { LinksService } from './links.service.ts';
import type { TrackedLinksAdmin } from './links.tracked-admin.ts';

const idParams = z.object({ id: z.uuid('Link inválido.') });
const listQuery = paginationQuery().extend({ q: z.string().trim().max(80).optional() });
const adminListQuery = listQuery.extend({ userId: z.uuid().optional() });
const CLICK_COLUMNS = [
  'at',
  'target',
  'referrer',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
  'device',
  'country',
  'visitor',
];

/** `/api/v1/rotating-links` (the owner's links, stats, clicks export) and `/api/v1/admin/links`. */
export function registerLinksRoutes(
  app: FastifyInstance,
  deps: { links: LinksService; trackedAdmin: TrackedLinksAdmin; guard: AuthGuard },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { links, trackedAdmin, guard } = deps;
  const errors = { 400: errorResponse, 401: errorResponse, 404: errorResponse, 409: errorResponse };
  const userRoute = routeOptions(guard.requireUser, { tags: ['rotating links'], errors });
  const adminRoute = routeOptions(guard.requireAdmin, { tags: ['admin'], errors });

  r.get(
    '/api/v1/rotating-links',
    userRoute({
      summary: "The user's rotating links",
      querystring: listQuery,
      response: { 200: linkListSchema },
    }),
    async (request) => links.list(currentUser(request).id, request.query),
  );

  r.post(
    '/api/v1/rotating-links',
    userRoute({
      summary: 'Create a rotating link',
      body: linkInputSchema,
      response: { 201: linkSchema },
    }),
    async (request, reply) => reply.status(201).send(await links.create(currentUser(request).id, request.body)),
  );

  r.get(
    '/api/v1/rotating-links/:id',
    userRoute({
      summary: 'A rotating link with its targets and clicks',
      params: idParams,
      response: { 200: linkSchema },
    }),
    async (request) => links.get(currentUser(request).id, request.params.id),
  );

  r.patch(
    '/api/v1/rotating-links/:id',
    userRoute({
      summary: 'Edit, pause or resume a rotating link (targets: the whole list, in order)',
      params: idParams,
      body: linkPatchSchema,
      response: { 200: linkSchema },
    }),
    async (request) => links.update(currentUser(request).id, request.params.id, request.body),
  );

  r.delete(
    '/api/v1/rotating-links/:id',
    userRoute({
      summary: 'Delete a rotating link (its address is free again)',
      params: idParams,
      response: { 204: z.null() },
    }),
    async (request, reply) => {
      await links.remove(currentUser(request).id, request.params.id);
      return reply.status(204).send(null);
    },
  );

  r.get(
    '/api/v1/rotating-links/:id/stats',
    userRoute({
      summary: 'Clicks over a period: per target, per day or hour (São Paulo), top referrers and UTM campaigns',
      params: idParams,
      querystring: linkStatsQuerySchema,
      response: { 200: linkStatsSchema },
    }),
    async (request) => links.stats(currentUser(request).id, request.params.id, request.query),
  );

  r.get(
    '/api/v1/rotating-links/:id/clicks/export',
    userRoute({
      summary: "Every click of a link (CSV, ';', formula-safe)",
      params: idParams,
      response: {},
    }),
    async (request, reply) => {
      const source = await links.exportSource(currentUser(request).id, request.params.id);
      async function* lines() {
        yield `\ufeff${csvLine(CLICK_COLUMNS)}`;
        for (let after = 0; ; ) {
          const page = await source.pageAfter(after);
          if (page.length === 0) return;
          for (const c of page)
            yield csvLine([
              c.at.toISOString(),
              c.targetId ? (source.labels.get(c.targetId) ?? '') : '',
              c.referrer,
              c.utmSource,
              c.utmMedium,
              c.utmCampaign,
              c.utmTerm,
              c.utmContent,
              c.device,
              c.country,
              c.visitor,
            ]);
          after = page[page.length - 1]!.id;
        }
      }
      return sendCsv(reply, `cliques-${source.link.slug}.csv`, lines());
    },
  );

  r.get(
    '/api/v1/admin/links',
    adminRoute({
      summary: "Every user's rotating links, with owner, clicks and status",
      querystring: adminListQuery,
      response: { 200: adminLinkListSchema, 403: errorResponse },
    }),
    async (request) => links.adminList(request.query),
  );

  r.patch(
    '/api/v1/admin/links/:id',
    adminRoute({
      summary: 'Disable (abuse) or enable a link; audited',
      params: idParams,
      body: adminLinkPatchSchema,
      response: { 200: linkSchema.or(adminLinkSchema), 403: errorResponse },
    }),
    async (request) =>
      links.adminSetDisabled(currentUser(request).id, request.params.id, request.body.disabled, request.body.reason),
  );

  r.get(
    '/api/v1/admin/links/tracked',
    adminRoute({
      summary: "Campaigns' tracked links (one short address per recipient), with owner and clicks",
      querystring: listQuery,
      response: { 200: adminTrackedLinkListSchema, 403: errorResponse },
    }),
    async (request) => trackedAdmin.list(request.query),
  );

  r.patch(
    '/api/v1/admin/links/tracked/:id',
    adminRoute({
      summary: "Turn a campaign's tracked links off (abuse) or on; audited",
      params: z.object({ id: z.uuid('Campanha inválida.') }),
      body: adminLinkPatchSchema,
      response: { 200: adminTrackedLinkSchema, 403: errorResponse },
    }),
    async (request) =>
      trackedAdmin.setDisabled(currentUser(request).id, request.params.id, request.body.disabled, request.body.reason),
  );
}
