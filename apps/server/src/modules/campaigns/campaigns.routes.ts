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
import type { CampaignsService } from './campaigns.service.ts';

const idParams = z.object({ id: z.uuid('Campanha inválida.') });
const draftAnswer = z.object({ id: z.string(), status: z.literal('DRAFT') });

/** `/api/v1/campaigns` (create, edit, estimate, start, pause, resume, cancel, duplicate) and the administrators' moves. */
export function registerCampaignsRoutes(app: FastifyInstance, deps: { campaigns: CampaignsService; guard: AuthGuard }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { campaigns, guard } = deps;
  const security = [{ bearer: [] }];
  const tags = ['campaigns'];
  const errors = { 400: errorResponse, 401: errorResponse, 404: errorResponse, 409: errorResponse };

  r.post(
    '/api/v1/campaigns',
    {
      onRequest: guard.requireScope('campaigns:write'),
      schema: {
        tags,
        security,
        summary: 'Create a campaign (a draft)',
        body: createCampaignRequestSchema,
        response: { 201: draftAnswer, ...errors },
      },
    },
    async (request, reply) => reply.status(201).send(await campaigns.create(currentUser(request).id, request.body)),
  );

  r.patch(
    '/api/v1/campaigns/:id',
    {
      onRequest: guard.requireScope('campaigns:write'),
      schema: {
        tags,
        security,
        summary: "Edit a draft's fields",
        params: idParams,
        body: updateCampaignRequestSchema,
        response: { 200: campaignSchema, ...errors },
      },
    },
    async (request) => campaigns.update(currentUser(request).id, request.params.id, request.body),
  );

  r.get(
    '/api/v1/campaigns/:id',
    {
      onRequest: guard.requireScope('campaigns:read'),
      schema: {
        tags,
        security,
        summary: 'A campaign: status, counts per recipient status, credits, reasons',
        params: idParams,
        response: { 200: campaignSchema, ...errors },
      },
    },
    async (request) => campaigns.get(currentUser(request).id, request.params.id),
  );

  r.get(
    '/api/v1/campaigns/:id/estimate',
    {
      onRequest: guard.requireScope('campaigns:read'),
      schema: {
        tags,
        security,
        summary: 'Recipients, exclusions, parts and credits needed against the available credits',
        params: idParams,
        response: { 200: campaignEstimateSchema, ...errors },
      },
    },
    async (request) => campaigns.estimate(currentUser(request).id, request.params.id),
  );

  r.post(
    '/api/v1/campaigns/:id/start',
    {
      onRequest: guard.requireScope('campaigns:write'),
      schema: {
        tags,
        security,
        summary: 'Start a draft: credits reserved, recipients snapshotted, sending queued (or scheduled)',
        description:
          'Optional body `{mode: "now"}` or `{mode: "schedule", schedule?}`: a schedule chosen but missing is 400 ' +
          '`SCHEDULE_REQUIRED`, one more than a minute in the past 400 `SCHEDULE_IN_PAST` (nothing reserved).',
        params: idParams,
        body: startCampaignRequestSchema,
        response: { 200: campaignSchema, ...errors },
      },
    },
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
      {
        onRequest: guard.requireScope('campaigns:write'),
        schema: { tags, security, summary, params: idParams, response: { 200: campaignSchema, ...errors } },
      },
      async (request) => {
        const userId = currentUser(request).id;
        await campaigns[move](userId, request.params.id);
        return campaigns.get(userId, request.params.id);
      },
    );
  }

  r.post(
    '/api/v1/campaigns/:id/duplicate',
    {
      onRequest: guard.requireScope('campaigns:write'),
      schema: {
        tags,
        security,
        summary: 'A new draft with the same settings',
        params: idParams,
        response: { 201: draftAnswer, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await campaigns.duplicate(currentUser(request).id, request.params.id)),
  );

  for (const move of ['pause', 'cancel'] as const) {
    r.post(
      `/api/v1/admin/campaigns/:id/${move}`,
      {
        onRequest: guard.requireAdmin,
        schema: {
          tags: ['admin'],
          security,
          summary: `${move === 'pause' ? 'Pause' : 'Cancel'} any user's campaign (audited)`,
          params: idParams,
          response: { 200: campaignSchema, 403: errorResponse, ...errors },
        },
      },
      async (request) => {
        const row = await (move === 'pause'
          ? campaigns.pauseAsAdmin(currentUser(request).id, request.params.id)
          : campaigns.cancelAsAdmin(currentUser(request).id, request.params.id));
        return campaigns.get(row.userId, row.id);
      },
    );
  }
}
