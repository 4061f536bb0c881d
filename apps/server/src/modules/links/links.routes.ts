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
import { ownedRoutes } from '../../platform/http/owned-routes.ts';
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

  const link = ownedRoutes(app, userRoute, { path: '/api/v1/rotating-links', params: idParams });
  link.list(
    { summary: "The user's rotating links", querystring: listQuery, response: linkListSchema },
    (userId, query) => links.list(userId, query),
  );
  link.create({ summary: 'Create a rotating link', body: linkInputSchema, response: linkSchema }, (userId, body) =>
    links.create(userId, body),
  );
  link.get({ summary: 'A rotating link with its targets and clicks', response: linkSchema }, (userId, id) =>
    links.get(userId, id),
  );
  link.update(
    {
      summary: 'Edit, pause or resume a rotating link (targets: the whole list, in order)',
      body: linkPatchSchema,
      response: linkSchema,
    },
    (userId, id, body) => links.update(userId, id, body),
  );
  link.remove({ summary: 'Delete a rotating link (its address is free again)' }, (userId, id) =>
    links.remove(userId, id),
  );
  link.get(
    {
      summary: 'Clicks over a period: per target, per day or hour (São Paulo), top referrers and UTM campaigns',
      below: '/stats',
      querystring: linkStatsQuerySchema,
      response: linkStatsSchema,
    },
    (userId, id, query) => links.stats(userId, id, query),
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
