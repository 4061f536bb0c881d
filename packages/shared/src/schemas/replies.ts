/**
 * The replies inbox (`/respostas`, `GET /api/v1/replies`): every SMS, WhatsApp or RCS message a
 * person sent back, with the campaign or message it answers, in keyset pages (newest first).
 */
import { z } from 'zod';
import { CAMPAIGN_KINDS, type Channel } from '../enums.ts';

/** The channel family a reply came on: an SMS reply answers an SMS short or flash. */
export const REPLY_CHANNELS = ['sms', 'whatsapp', 'rcs'] as const;
export type ReplyChannel = (typeof REPLY_CHANNELS)[number];

/** WhatsApp's customer-service window: a free-form answer only this long after the person wrote. */
export const WHATSAPP_ANSWER_WINDOW_MS = 24 * 60 * 60 * 1000;

/** The longest answer typed in the inbox (an SMS of 10 parts, a WhatsApp text well inside 4,096). */
export const REPLY_ANSWER_MAX = 1530;

export const replySchema = z.object({
  id: z.string(),
  /** E.164. */
  phone: z.string(),
  /** The name this number has in one of the user's lists, if any. */
  contactName: z.string().nullable(),
  channel: z.enum(REPLY_CHANNELS),
  text: z.string(),
  receivedAt: z.string(),
  /** The text was an opt-out word: the number joined the user's opt-outs. */
  optOut: z.boolean(),
  handledAt: z.string().nullable(),
  /**
   * The campaign of the message it answers (the last one sent to this number on that channel).
   * `kind: 'api'`: that message came from the sending API (its request's batch, not a campaign page).
   */
  campaign: z.object({ id: z.string(), name: z.string(), kind: z.enum(CAMPAIGN_KINDS) }).nullable(),
  /** The answered message's `externalId`, when it was sent through the API with one. */
  externalId: z.string().nullable(),
  messageId: z.string().nullable(),
  /** Until when it can be answered from the inbox; null: any time (SMS) or never (RCS: see `answerable`). */
  answerableUntil: z.string().nullable(),
  /** An SMS reply always; a WhatsApp one inside its 24-hour window; RCS never. */
  answerable: z.boolean(),
});
export type Reply = z.infer<typeof replySchema>;

export const repliesFilterSchema = z.object({
  campaignId: z.uuid('Campanha inválida.').optional(),
  channel: z.enum(REPLY_CHANNELS).optional(),
  /** Received at or after (ISO date-time). */
  from: z.iso.datetime({ offset: true, message: 'Data inválida.' }).optional(),
  /** Received before (ISO date-time). */
  to: z.iso.datetime({ offset: true, message: 'Data inválida.' }).optional(),
  /** `false`: only those not handled yet; `true`: only handled ones. */
  handled: z.enum(['true', 'false']).optional(),
});
export type RepliesFilter = z.infer<typeof repliesFilterSchema>;

export const repliesQuerySchema = repliesFilterSchema.extend({
  /** The `nextCursor` of the page before. */
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export type RepliesQuery = z.input<typeof repliesQuerySchema>;

export const repliesPageSchema = z.object({ items: z.array(replySchema), nextCursor: z.string().nullable() });
export type RepliesPage = z.infer<typeof repliesPageSchema>;

export const replyHandledSchema = z.object({ handled: z.boolean() });

export const replyAnswerSchema = z.object({
  text: z.string().trim().min(1, 'Escreva a resposta.').max(REPLY_ANSWER_MAX, 'Resposta longa demais.'),
});
export type ReplyAnswerInput = z.infer<typeof replyAnswerSchema>;

/** The channels whose messages a reply on `family` answers. */
export const REPLY_FAMILY_CHANNELS = {
  sms: ['sms_short', 'sms_flash'],
  whatsapp: ['whatsapp'],
  rcs: ['rcs'],
} as const satisfies Record<ReplyChannel, readonly Channel[]>;
