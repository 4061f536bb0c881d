import {
  campaignEstimateSchema,
  campaignSchema,
  createCampaignRequestSchema,
  startCampaignRequestSchema,
  updateCampaignRequestSchema,
} from '@ecoa/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type AuthGuard, currentUser } from '../../platform/auth/guard.ts';
import { errorResponseSchema as errorResponse } from '../../platform/http/error-schema.ts';
import { ownedRoutes } from '../../platform/http/owned-routes.ts';
import { routeOptions } from '../../platform/http/route-options.ts';
import type { CampaignsService } from './campaigns.service.ts';

const idParams = z.object({ id: z.uuid('Campanha inválida.') });
const draftAnswer = z.object({ id: z.string(), status: z.literal('DRAFT') });

/** `/api/v1/campaigns` (create, edit, estimate, start, pause, resume, cancel, duplicate) and the administrators' moves. */
export function registerCampaignsRoutes(app: FastifyInstance, deps: { campaigns: CampaignsService; guard: AuthGuard }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { campaigns, guard } = deps;
  const errors = { 400: errorResponse, 401: errorResponse, 404: errorResponse, 409: errorResponse };
  const writeRoute = routeOptions(guard.requireScope('campaigns:write'), { tags: ['campaigns'], errors });
  const readRoute = routeOptions(guard.requireScope('campaigns:read'), { tags: ['campaigns'], errors });
  const adminRoute = routeOptions(guard.requireAdmin, { tags: ['admin'], errors: { ...errors, 403: errorResponse } });

  const campaign = ownedRoutes(app, writeRoute, { path: '/api/v1/campaigns', params: idParams });
  const readCampaign = ownedRoutes(app, readRoute, { path: '/api/v1/campaigns', params: idParams });
  campaign.create(
    { summary: 'Create a campaign (a draft)', body: createCampaignRequestSchema, response: draftAnswer },
    (userId, body) => campaigns.create(userId, body),
  );
  campaign.update(
    { summary: "Edit a draft's fields", body: updateCampaignRequestSchema, response: campaignSchema },
    (userId, id, body) => campaigns.update(userId, id, body),
  );
  readCampaign.get(
    { summary: 'A campaign: status, counts per recipient status, credits, reasons', response: campaignSchema },
    (userId, id) => campaigns.get(userId, id),
  );
  readCampaign.get(
    {
      summary: 'Recipients, exclusions, parts and credits needed against the available credits',
      below: '/estimate',
      response: campaignEstimateSchema,
    },
    (userId, id) => campaigns.estimate(userId, id),
  );
  campaign.act(
    {
      summary: 'Start a draft: credits reserved, recipients snapshotted, sending queued (or scheduled)',
      description:
        'Optional body `{mode: "now"}` or `{mode: "schedule", schedule?}`: a schedule chosen but missing is 400 ' +
        '`SCHEDULE_REQUIRED`, one more than a minute in the past 400 `SCHEDULE_IN_PAST` (nothing reserved).',
      below: '/start',
      body: startCampaignRequestSchema,
      response: campaignSchema,
    },
    async (userId, id, body) => {
      await campaigns.start(userId, id, body);
      return campaigns.get(userId, id);
    },
  );

  const moves = {
    pause: 'Pause a running or scheduled campaign',
    resume: 'Resume a paused campaign',
    cancel: 'Cancel: what was not sent is not sent, its credits come back at once',
  } as const;
  for (const [move, summary] of Object.entries(moves) as [keyof typeof moves, string][]) {
    campaign.act({ summary, below: `/${move}`, response: campaignSchema }, async (userId, id) => {
      await campaigns[move](userId, id);
      return campaigns.get(userId, id);
    });
  }

  campaign.act(
    { summary: 'A new draft with the same settings', below: '/duplicate', status: 201, response: draftAnswer },
    (userId, id) => campaigns.duplicate(userId, id),
  );

  for (const move of ['pause', 'cancel'] as const) {
    r.post(
      `/api/v1/admin/campaigns/:id/${move}`,
      adminRoute({
        summary: `${move === 'pause' ? 'Pause' : 'Cancel'} any user's campaign (audited)`,
        params: idParams,
        response: { 200: campaignSchema },
      }),
      async (request) => {
        const row = await (move === 'pause'
          ? campaigns.pauseAsAdmin(currentUser(request).id, request.params.id)
          : campaigns.cancelAsAdmin(currentUser(request).id, request.params.id));
        return campaigns.get(row.userId, row.id);
      },
    );
  }
}
