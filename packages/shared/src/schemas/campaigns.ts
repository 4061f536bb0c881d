import { z } from 'zod';
import { CAMPAIGN_STATUSES, CHANNELS, CREDIT_TYPES } from '../enums.ts';
import { MESSAGE_STATUSES, type MessageStatus, rcsContentSchema, whatsappTemplateSchema } from './channels.ts';
import { pageSchema, paginationQuery } from './page.ts';

/** Where campaigns are scheduled and their sending window is read. */
export const CAMPAIGN_TIME_ZONE = 'America/Sao_Paulo';

const hhmm = z.string().regex(/^(([01]\d|2[0-3]):[0-5]\d|24:00)$/, 'Horário inválido (HH:MM).');

/**
 * When sending may happen, in America/Sao_Paulo: days of the week (0 = Sunday … 6 = Saturday)
 * and a daily start/end. Outside it, sending waits and resumes by itself.
 */
export const sendingWindowSchema = z
  .object({
    days: z.array(z.number().int().min(0).max(6)).min(1).max(7),
    start: hhmm,
    end: hhmm,
  })
  .refine((w) => w.start < w.end, { message: 'O fim da janela deve ser depois do início.', path: ['end'] });
export type SendingWindow = z.infer<typeof sendingWindowSchema>;

/** 09:00–21:00, Monday to Saturday. */
export const DEFAULT_SENDING_WINDOW: SendingWindow = { days: [1, 2, 3, 4, 5, 6], start: '09:00', end: '21:00' };

/** The most messages per second a campaign may ask for (its own cap; the carrier's limit applies too). */
export const MAX_CAMPAIGN_RATE = 10_000;

/** The placeholder of a campaign's tracked link in an SMS or RCS text. */
export const TRACKED_LINK_VARIABLE = 'link';
/** `PUBLIC_URL/l/_` + this many characters: what a tracked link adds to an SMS (the counter uses it). */
export const TRACKED_LINK_CODE_LENGTH = 10;
/** A recipient's tracked address: `PUBLIC_URL/l/_<code>`. */
export const trackedLinkUrl = (publicUrl: string, code: string) => `${publicUrl}/l/_${code}`;
/** A tracked address as long as every recipient's: what SMS counters and estimates measure. */
export const trackedLinkSample = (publicUrl: string) => trackedLinkUrl(publicUrl, 'x'.repeat(TRACKED_LINK_CODE_LENGTH));
export const trackedLinkSchema = z.union([
  z.object({ rotatingLinkId: z.uuid() }),
  z.object({ url: z.url({ protocol: /^https?$/ }).max(2000) }),
]);
export type TrackedLink = z.infer<typeof trackedLinkSchema>;

/**
 * What a campaign sends; which fields apply depends on the channel (checked by the server when
 * the campaign is estimated or started, so a draft may be incomplete):
 * SMS: `{text}` · torpedo: `{audioId}` or `{tts}` · URA: `{menu: {audioId} | {tts}, options,
 * integrationUrl?}` · WhatsApp: `{template: {name, language, params}}` · RCS: `{text}` or `{card}`
 * (+ `suggestions`). Texts and WhatsApp parameters may hold the lists' variables (`{nome}`,
 * `{telefone}`, any column of the lists).
 */
export const campaignContentSchema = z.object({
  text: z.string().max(1600).optional(),
  audioId: z.uuid().optional(),
  tts: z.string().trim().max(1000).optional(),
  menu: z
    .object({
      audioId: z.uuid().optional(),
      tts: z.string().trim().max(1000).optional(),
    })
    .optional(),
  options: z
    .array(z.string().regex(/^[0-9*#]$/))
    .max(12)
    .optional(),
  integrationUrl: z.url({ protocol: /^https?$/ }).optional(),
  template: whatsappTemplateSchema
    .extend({ params: z.array(z.string().trim().min(1).max(1024)).max(20).default([]) })
    .optional(),
  card: rcsContentSchema.shape.card,
  suggestions: rcsContentSchema.shape.suggestions,
  /**
   * SMS and RCS texts: where `{link}` leads. Each recipient gets its own short address
   * (`PUBLIC_URL/l/_<code>`) in place of `{link}`, so the report knows who clicked.
   */
  trackedLink: trackedLinkSchema.optional(),
});
export type CampaignContent = z.infer<typeof campaignContentSchema>;

const campaignFields = {
  name: z.string().trim().min(1).max(120),
  channel: z.enum(CHANNELS),
  listIds: z.array(z.uuid()).max(50),
  content: campaignContentSchema,
  /** ISO 8601 date-time (with offset); null or absent: start now. */
  schedule: z.iso.datetime({ offset: true }).nullable().optional(),
  window: sendingWindowSchema.nullable().optional(),
  /** Messages per second at most; null or absent: as fast as the carrier allows. */
  maxRate: z.number().int().min(1).max(MAX_CAMPAIGN_RATE).nullable().optional(),
};

/** `POST /api/v1/campaigns` → `{id, status: "DRAFT"}`. */
export const createCampaignRequestSchema = z.object({
  ...campaignFields,
  listIds: campaignFields.listIds.default([]),
  content: campaignContentSchema.default({}),
});
export type CreateCampaignRequest = z.input<typeof createCampaignRequestSchema>;
export type CreateCampaignInput = z.output<typeof createCampaignRequestSchema>;

/** `PATCH /api/v1/campaigns/:id` (a draft): any of the fields. */
export const updateCampaignRequestSchema = z.object(campaignFields).partial();
export type UpdateCampaignRequest = z.input<typeof updateCampaignRequestSchema>;
export type UpdateCampaignInput = z.output<typeof updateCampaignRequestSchema>;

/**
 * A schedule is always in the future (spec §5): a `schedule` earlier than the server's clock by
 * more than this is refused (400 `SCHEDULE_IN_PAST`) on create, edit and start. The minute of grace
 * covers a browser clock a little ahead of the server's, so "now + 1 min" chosen in the wizard is
 * not refused; a schedule within it (its time already come) starts at once. The wizard itself is
 * stricter: it only offers a time after its own clock.
 */
export const SCHEDULE_GRACE_MS = 60_000;

/**
 * `POST /api/v1/campaigns/:id/start`, optional: what the user chose, so the start is exactly that.
 * `now`: sends at once (a kept schedule is dropped). `schedule`: at `schedule` (else the draft's),
 * 400 `SCHEDULE_REQUIRED` with none, `SCHEDULE_IN_PAST` with a past one. Without it, the draft's
 * schedule decides (none: now).
 */
export const startCampaignRequestSchema = z
  .object({
    mode: z.enum(['now', 'schedule']).optional(),
    schedule: z.iso.datetime({ offset: true }).nullable().optional(),
  })
  .refine((b) => !(b.mode === 'now' && b.schedule), {
    message: 'Enviar agora não leva data de agendamento.',
    path: ['schedule'],
  })
  // No body at all (Fastify hands the schema null): the draft's schedule decides.
  .nullish();
export type StartCampaignRequest = z.input<typeof startCampaignRequestSchema>;

export const campaignCountsSchema = z.object({
  queued: z.number(),
  submitting: z.number(),
  sent: z.number(),
  delivered: z.number(),
  failed: z.number(),
  expired: z.number(),
  unknown: z.number(),
  optedOut: z.number(),
  canceled: z.number(),
});
export type CampaignCounts = z.infer<typeof campaignCountsSchema>;

/** Where a recipient of each status is counted in `CampaignCounts`. */
export const CAMPAIGN_COUNT_KEY: Record<MessageStatus, keyof CampaignCounts> = {
  queued: 'queued',
  submitting: 'submitting',
  sent: 'sent',
  delivered: 'delivered',
  failed: 'failed',
  expired: 'expired',
  unknown: 'unknown',
  opted_out: 'optedOut',
  canceled: 'canceled',
};

export const campaignCreditsSchema = z.object({ reserved: z.number(), used: z.number(), released: z.number() });

/** `GET /api/v1/campaigns/:id`. */
export const campaignSchema = z.object({
  id: z.string(),
  name: z.string(),
  channel: z.enum(CHANNELS),
  status: z.enum(CAMPAIGN_STATUSES),
  /** Recipients snapshotted at start (0 for a draft). */
  total: z.number(),
  counts: campaignCountsSchema,
  /** Credits of the channel's type: reserved at start, used (captured), released. */
  credits: campaignCreditsSchema,
  creditType: z.enum(CREDIT_TYPES),
  /** Failure reasons (failed, expired, unknown), most frequent first. */
  reasons: z.array(z.object({ reason: z.string(), count: z.number() })),
  /** URA: digits pressed and how many recipients pressed each. */
  answers: z.array(z.object({ digit: z.string(), count: z.number() })),
  /** Its tracked link: clicks, recipients who clicked, and their share of those it reached. */
  clicks: z.object({ total: z.number(), recipients: z.number(), rate: z.number() }),
  /** Why the campaign is paused or failed (e.g. `PROVIDER_FAILING`), with the carrier's last reason. */
  statusReason: z.string().nullable(),
  statusDetail: z.string().nullable(),
  /** Waiting for its sending window to open. */
  waitingWindow: z.boolean(),
  listIds: z.array(z.string()),
  content: campaignContentSchema,
  window: sendingWindowSchema,
  maxRate: z.number().nullable(),
  createdAt: z.string(),
  scheduledAt: z.string().nullable(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export type Campaign = z.infer<typeof campaignSchema>;

/** An item of `GET /api/v1/campaigns` and of the administrators' list (with the user). */
export const campaignSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  channel: z.enum(CHANNELS),
  status: z.enum(CAMPAIGN_STATUSES),
  total: z.number(),
  /** Recipients whose outcome is known or settled (everything but queued and submitting). */
  done: z.number(),
  sent: z.number(),
  delivered: z.number(),
  failed: z.number(),
  /** Recipients still in flight or waiting for their carrier's receipt: the screens poll while any is. */
  awaiting: z.number(),
  creditsUsed: z.number(),
  statusReason: z.string().nullable(),
  waitingWindow: z.boolean(),
  createdAt: z.string(),
  scheduledAt: z.string().nullable(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  user: z.object({ id: z.string(), name: z.string(), email: z.string(), company: z.string() }).optional(),
});
export type CampaignSummary = z.infer<typeof campaignSummarySchema>;

export const campaignListQuerySchema = paginationQuery().extend({
  status: z.enum(CAMPAIGN_STATUSES).optional(),
  channel: z.enum(CHANNELS).optional(),
  q: z.string().trim().max(120).optional(),
  /** Administrators' list only: one user's campaigns. */
  userId: z.uuid().optional(),
});
export type CampaignListQuery = z.input<typeof campaignListQuerySchema>;

export const campaignListSchema = pageSchema(campaignSummarySchema);
export type CampaignList = z.infer<typeof campaignListSchema>;

/** `GET /api/v1/campaigns/:id/estimate`: who would get it, what it costs, against the user's credits. */
export const campaignEstimateSchema = z.object({
  recipients: z.number(),
  excluded: z.object({ optedOut: z.number(), duplicates: z.number(), landlines: z.number() }),
  /** SMS parts (credits) in all; 1 per recipient for the other channels. */
  parts: z.number(),
  /** SMS: the fewest and most parts one recipient's text takes (variables change the length). */
  partsPerMessage: z.object({ min: z.number(), max: z.number() }),
  encoding: z.enum(['gsm7', 'ucs2']).nullable(),
  creditType: z.enum(CREDIT_TYPES),
  creditsNeeded: z.number(),
  available: z.number(),
  shortfall: z.number(),
  /** What is missing before the campaign can start (e.g. `TEXT_REQUIRED`, `LISTS_REQUIRED`), translated by the web. */
  problems: z.array(z.object({ code: z.string(), message: z.string() })),
  /** SMS: the first recipient's message as it will be sent (variables filled), for the review; else null. */
  example: z.object({ to: z.string(), text: z.string() }).nullable(),
  /** SMS: the parts (credits) in all and per message with the accents removed, when that saves parts; else null. */
  withoutAccents: z.object({ parts: z.number(), min: z.number(), max: z.number() }).nullable(),
});
export type CampaignEstimate = z.infer<typeof campaignEstimateSchema>;

/** `GET /api/v1/campaigns/:id/messages?status=&page=`. */
export const campaignMessagesQuerySchema = paginationQuery({ pageSize: 50, maxPageSize: 200 }).extend({
  status: z.enum(MESSAGE_STATUSES).optional(),
  q: z.string().trim().max(40).optional(),
  /** Only the recipients who clicked the campaign's tracked link. */
  clicked: z.stringbool().optional(),
});
export const campaignMessageSchema = z.object({
  id: z.string(),
  to: z.string(),
  name: z.string().nullable(),
  status: z.enum(MESSAGE_STATUSES),
  reason: z.string().nullable(),
  parts: z.number(),
  digits: z.string().nullable(),
  /** Clicks on its tracked link (0 when the campaign has none). */
  clicks: z.number(),
  submittedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export type CampaignMessage = z.infer<typeof campaignMessageSchema>;
export const campaignMessagesSchema = pageSchema(campaignMessageSchema);
export type CampaignMessages = z.infer<typeof campaignMessagesSchema>;

/**
 * `GET /api/v1/campaigns/:id/timeline`: sends and outcomes per bucket, whose width follows how long
 * the campaign ran (1 s, 10 s, a minute, 10 minutes or an hour).
 */
export const campaignTimelineSchema = z.object({
  bucket: z.enum(['second', '10s', 'minute', '10min', 'hour']),
  points: z.array(z.object({ at: z.string(), sent: z.number(), delivered: z.number(), failed: z.number() })),
});
export type CampaignTimeline = z.infer<typeof campaignTimelineSchema>;

/** `GET /api/v1/dashboard/summary`: the signed-in user's home page. */
export const dashboardSummarySchema = z.object({
  running: z.array(campaignSummarySchema),
  recent: z.array(campaignSummarySchema),
  /** The last 30 days (America/Sao_Paulo), one point per day and channel that sent anything. */
  daily: z.array(z.object({ day: z.string(), channel: z.enum(CHANNELS), sent: z.number(), delivered: z.number() })),
  totals: z.object({ sent: z.number(), delivered: z.number(), campaigns: z.number() }),
  firstSteps: z.object({ hasList: z.boolean(), hasCredits: z.boolean(), hasCampaign: z.boolean() }),
});
export type DashboardSummary = z.infer<typeof dashboardSummarySchema>;
