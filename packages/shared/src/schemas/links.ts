/**
 * Rotating links (`/link-rotativo`): one public address, `PUBLIC_URL/l/<slug>`, that spreads
 * clicks across WhatsApp numbers or URLs. The request and answer shapes of
 * `/api/v1/rotating-links` and `/api/v1/admin/links`, shared by the server and the web app.
 */
import { z } from 'zod';
import { sendingWindowSchema } from './campaigns.ts';
import { pageSchema } from './page.ts';

export const LINK_MODES = ['round_robin', 'weighted'] as const;
export type LinkMode = (typeof LINK_MODES)[number];
export const LINK_STATUSES = ['active', 'paused'] as const;
export type LinkStatus = (typeof LINK_STATUSES)[number];

export const LINK_SLUG_MIN = 3;
export const LINK_SLUG_MAX = 60;
/** Letters, digits and hyphens; no hyphen at either end, none doubled. Stored lower-case. */
export const LINK_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** The most targets a link may have (salespeople of a team). */
export const MAX_LINK_TARGETS = 50;
export const MAX_TARGET_WEIGHT = 100;
/** Placeholders a prefilled WhatsApp message may use: the link's name, the target's label. */
export const LINK_MESSAGE_PLACEHOLDERS = ['nome_do_link', 'atendente'] as const;

/** A slug suggested from a name: accents and symbols dropped, words joined by hyphens. */
export function suggestSlug(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, LINK_SLUG_MAX)
    .replace(/-+$/g, '');
}

const slug = z
  .string()
  .trim()
  .toLowerCase()
  .min(LINK_SLUG_MIN, `O endereço precisa de pelo menos ${LINK_SLUG_MIN} caracteres.`)
  .max(LINK_SLUG_MAX, `O endereço pode ter no máximo ${LINK_SLUG_MAX} caracteres.`)
  .regex(LINK_SLUG_PATTERN, 'Use letras, números e hífens no endereço.');

/** Opening hours of a target (America/Sao_Paulo), like a campaign's sending window. */
export const targetHoursSchema = sendingWindowSchema;
export type TargetHours = z.infer<typeof targetHoursSchema>;

const weight = z.number().int().min(1).max(MAX_TARGET_WEIGHT).optional();
const label = z.string().trim().max(60).optional();

export const whatsappTargetSchema = z.object({
  id: z.string().optional(),
  kind: z.literal('whatsapp'),
  phone: z.string().trim().min(1, 'Informe o número do WhatsApp.').max(30),
  label,
  message: z.string().max(500).optional(),
  weight,
  active: z.boolean().optional(),
  hours: targetHoursSchema.nullable().optional(),
});
export const urlTargetSchema = z.object({
  id: z.string().optional(),
  kind: z.literal('url'),
  url: z.string().trim().max(2000),
  label,
  weight,
  active: z.boolean().optional(),
  hours: targetHoursSchema.nullable().optional(),
});
export const linkTargetInputSchema = z.discriminatedUnion('kind', [whatsappTargetSchema, urlTargetSchema]);
export type LinkTargetInput = z.infer<typeof linkTargetInputSchema>;

/** Where a visitor goes when no target is available: a URL or a WhatsApp number. */
export const linkFallbackSchema = z.discriminatedUnion('kind', [
  whatsappTargetSchema.pick({ kind: true, phone: true, message: true }),
  urlTargetSchema.pick({ kind: true, url: true }),
]);
export type LinkFallback = z.infer<typeof linkFallbackSchema>;

export const linkPixelsSchema = z.object({
  meta: z
    .string()
    .trim()
    .regex(/^\d{5,20}$/, 'O ID do Pixel da Meta tem só números.')
    .optional(),
  google: z
    .string()
    .trim()
    .regex(/^(G|AW|GT|DC)-[A-Z0-9]{4,20}$/i, 'Use o ID da tag do Google, como G-XXXXXXX.')
    .optional(),
});
export type LinkPixels = z.infer<typeof linkPixelsSchema>;

export const linkInputSchema = z.object({
  name: z.string().trim().min(1, 'Dê um nome ao link.').max(80),
  slug,
  mode: z.enum(LINK_MODES).default('round_robin'),
  sticky: z.boolean().optional(),
  targets: z.array(linkTargetInputSchema).min(1, 'Adicione pelo menos um destino.').max(MAX_LINK_TARGETS),
  fallback: linkFallbackSchema.nullable().optional(),
  pixels: linkPixelsSchema.nullable().optional(),
});
export type LinkInput = z.infer<typeof linkInputSchema>;
export const linkPatchSchema = linkInputSchema.partial().extend({ status: z.enum(LINK_STATUSES).optional() });
export type LinkPatch = z.infer<typeof linkPatchSchema>;

export const linkTargetSchema = z.object({
  id: z.string(),
  kind: z.enum(['whatsapp', 'url']),
  /** E.164 for WhatsApp targets. */
  phone: z.string().nullable(),
  url: z.string().nullable(),
  label: z.string().nullable(),
  message: z.string().nullable(),
  weight: z.number(),
  active: z.boolean(),
  hours: targetHoursSchema.nullable(),
  clicks: z.number(),
});
export type LinkTarget = z.infer<typeof linkTargetSchema>;

export const linkSchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  url: z.string(),
  mode: z.enum(LINK_MODES),
  sticky: z.boolean(),
  status: z.enum(LINK_STATUSES),
  disabled: z.boolean(),
  disabledReason: z.string().nullable(),
  targets: z.array(linkTargetSchema),
  fallback: linkFallbackSchema.nullable(),
  pixels: linkPixelsSchema.nullable(),
  clicks: z.number(),
  clicksLast7Days: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type RotatingLink = z.infer<typeof linkSchema>;

export const linkListSchema = pageSchema(linkSchema);
export type RotatingLinkList = z.infer<typeof linkListSchema>;

/**
 * The longest period of a link's stats per bucket, in days: every bucket is a row the server
 * builds and the chart draws. The screen asks 7, 30 or 90 days by day or hour (2,160 hours);
 * the extra days absorb a browser clock ahead of the server's. Wider → 400 `PERIOD_TOO_LONG`.
 */
export const LINK_STATS_MAX_DAYS = { hour: 92, day: 732 } as const;

export const linkStatsQuerySchema = z.object({
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  bucket: z.enum(['day', 'hour']).default('day'),
});
export const linkStatsSchema = z.object({
  clicks: z.number(),
  from: z.string(),
  to: z.string(),
  bucket: z.enum(['day', 'hour']),
  byTarget: z.array(z.object({ targetId: z.string().nullable(), label: z.string().nullable(), clicks: z.number() })),
  byDay: z.array(z.object({ day: z.string(), clicks: z.number() })),
  topReferrers: z.array(z.object({ referrer: z.string(), clicks: z.number() })),
  topCampaigns: z.array(z.object({ utmCampaign: z.string(), clicks: z.number() })),
  fallbackClicks: z.number(),
});
export type LinkStats = z.infer<typeof linkStatsSchema>;

export const adminLinkSchema = linkSchema.extend({
  user: z.object({ id: z.string(), name: z.string(), email: z.string(), company: z.string() }),
});
export const adminLinkListSchema = pageSchema(adminLinkSchema);
export const adminLinkPatchSchema = z.object({
  disabled: z.boolean(),
  reason: z.string().trim().max(300).optional(),
});

/**
 * `GET /api/v1/admin/links/tracked`: campaigns whose SMS or RCS text carries a tracked `{link}`
 * (one short address per recipient), with owner, where the link leads and its clicks.
 */
export const adminTrackedLinkSchema = z.object({
  /** The campaign's id: its recipients' tracked links are turned off and on together. */
  id: z.string(),
  campaign: z.object({ id: z.string(), name: z.string(), status: z.string() }),
  destination: z.object({
    rotatingLink: z.object({ id: z.string(), name: z.string(), slug: z.string() }).nullable(),
    url: z.string().nullable(),
  }),
  user: z.object({ id: z.string(), name: z.string(), email: z.string(), company: z.string() }),
  recipients: z.number(),
  clicks: z.number(),
  clickers: z.number(),
  disabled: z.boolean(),
  disabledReason: z.string().nullable(),
  createdAt: z.string(),
});
export type AdminTrackedLink = z.infer<typeof adminTrackedLinkSchema>;
export const adminTrackedLinkListSchema = pageSchema(adminTrackedLinkSchema);
export type AdminTrackedLinkList = z.infer<typeof adminTrackedLinkListSchema>;
