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

  r.post(
    '/api/v1/campaigns',
    writeRoute({
      summary: 'Create a campaign (a draft)',
      body: createCampaignRequestSchema,
      response: { 201: draftAnswer },
    }),
    async (request, reply) => reply.status(201).send(await campaigns.create(currentUser(request).id, request.body)),
  );

  r.patch(
    '/api/v1/campaigns/:id',
    writeRoute({
      summary: "Edit a draft's fields",
      params: idParams,
      body: updateCampaignRequestSchema,
      response: { 200: campaignSchema },
    }),
    async (request) => campaigns.update(currentUser(request).id, request.params.id, request.body),
  );

  r.get(
    '/api/v1/campaigns/:id',
    readRoute({
      summary: 'A campaign: status, counts per recipient status, credits, reasons',
      params: idParams,
      response: { 200: campaignSchema },
    }),
    async (request) => campaigns.get(currentUser(request).id, request.params.id),
  );

  r.get(
    '/api/v1/campaigns/:id/estimate',
    readRoute({
      summary: 'Recipients, exclusions, parts and credits needed against the available credits',
      params: idParams,
      response: { 200: campaignEstimateSchema },
    }),
    async (request) => campaigns.estimate(currentUser(request).id, request.params.id),
  );

  r.post(
    '/api/v1/campaigns/:id/start',
    writeRoute({
      summary: 'Start a draft: credits reserved, recipients snapshotted, sending queued (or scheduled)',
      description:
        'Optional body `{mode: "now"}` or `{mode: "schedule", schedule?}`: a schedule chosen but missing is 400 ' +
        '`SCHEDULE_REQUIRED`, one more than a minute in the past 400 `SCHEDULE_IN_PAST` (nothing reserved).',
      params: idParams,
      body: startCampaignRequestSchema,
      response: { 200: campaignSchema },
    }),
    async (request) => {
      const userId = currentUser(request).id;
      await campaigns.start(userId, request.params.id, request.body);
      return campaigns.get(userId, request.params.id);
    },
  );

  const moves = {
    pause: 'Pause a running or scheduled campaign',
    resume: 'Resume a paused campaign',
    cancel: 'Cancel: what was not sent is not sent, its credits come back at once',
  } as const;
  for (const [move, summary] of Object.entries(moves) as [keyof typeof moves, string][]) {
    r.post(
      `/api/v1/campaigns/:id/${move}`,
      writeRoute({ summary, params: idParams, response: { 200: campaignSchema } }),
      async (request) => {
        const userId = currentUser(request).id;
        await campaigns[move](userId, request.params.id);
        return campaigns.get(userId, request.params.id);
      },
    );
  }

  r.post(
    '/api/v1/campaigns/:id/duplicate',
    writeRoute({
      summary: 'A new draft with the same settings',
      params: idParams,
      response: { 201: draftAnswer },
    }),
    async (request, reply) =>
      reply.status(201).send(await campaigns.duplicate(currentUser(request).id, request.params.id)),
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
