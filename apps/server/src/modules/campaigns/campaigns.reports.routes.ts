import {
  CAMPAIGN_STATUSES,
  CHANNELS,
  campaignListQuerySchema,
  campaignListSchema,
  campaignMessagesQuerySchema,
  campaignMessagesSchema,
  campaignTimelineSchema,
} from '@ecoa/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type AuthGuard, currentUser } from '../../platform/auth/guard.ts';
import { sendCsv } from '../../platform/http/csv.ts';
import { errorResponseSchema as errorResponse } from '../../platform/http/error-schema.ts';
import { ownedRoutes } from '../../platform/http/owned-routes.ts';
import { routeOptions } from '../../platform/http/route-options.ts';
import type { CampaignReports } from './campaigns.reports.service.ts';

const idParams = z.object({ id: z.uuid('Campanha inválida.') });

/** What the campaign screens read: `GET /api/v1/campaigns`, a campaign's recipients, export and timeline, the administrators' list. */
export function registerCampaignReportRoutes(
  app: FastifyInstance,
  deps: { reports: CampaignReports; guard: AuthGuard },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { reports, guard } = deps;
  const errors = { 400: errorResponse, 401: errorResponse, 404: errorResponse };
  const readRoute = routeOptions(guard.requireScope('campaigns:read'), { tags: ['campaigns'], errors });
  const adminRoute = routeOptions(guard.requireAdmin, { tags: ['admin'], errors: { ...errors, 403: errorResponse } });
  const userQuery = campaignListQuerySchema.omit({ userId: true });

  const campaign = ownedRoutes(app, readRoute, { path: '/api/v1/campaigns', params: idParams });
  campaign.list(
    {
      summary: "The user's campaigns with their progress, newest first",
      querystring: userQuery,
      response: campaignListSchema,
    },
    (userId, query) => reports.list(userId, query),
  );
  campaign.get(
    {
      summary: "A campaign's recipients: status, reason, parts, digits pressed",
      below: '/messages',
      querystring: campaignMessagesQuerySchema,
      response: campaignMessagesSchema,
    },
    (userId, id, query) => reports.messages(userId, id, query),
  );

  r.get(
    '/api/v1/campaigns/:id/export',
    readRoute({ summary: "A campaign's recipients as CSV (formula-safe)", params: idParams }),
    async (request, reply) => {
      const { fileName, lines } = await reports.export(currentUser(request).id, request.params.id);
      return sendCsv(reply, fileName, lines);
    },
  );

  campaign.get(
    {
      summary: 'Sends, deliveries and failures per minute (or hour)',
      below: '/timeline',
      response: campaignTimelineSchema,
    },
    (userId, id) => reports.timeline(userId, id),
  );

  r.get(
    '/api/v1/admin/campaigns',
    adminRoute({
      summary: "Every user's campaigns (filter by user, status, channel; search names and users)",
      querystring: campaignListQuerySchema.extend({
        status: z.enum(CAMPAIGN_STATUSES).optional(),
        channel: z.enum(CHANNELS).optional(),
      }),
      response: { 200: campaignListSchema },
    }),
    async (request) => reports.listAll(request.query),
  );
}
