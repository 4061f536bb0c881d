/**
 * The developers' sending API (issue 23): `POST /api/v1/messages`, `POST /api/v1/messages/batch`,
 * `GET /api/v1/messages` and `DELETE /api/v1/messages/:id`. The content fields are a campaign's
 * (same rules, same variables), given per request instead of per draft.
 */
import { z } from 'zod';
import { CHANNELS } from '../enums.ts';
import { sendingWindowSchema } from './campaigns.ts';
import { MESSAGE_STATUSES, messageFieldsSchema, rcsContentSchema, whatsappTemplateSchema } from './channels.ts';

/** The channels the API sends today (URA needs its menu and integration URL: campaigns only for now). */
export const API_CHANNELS = ['sms_short', 'sms_flash', 'whatsapp', 'rcs', 'voice_torpedo'] as const;
export type ApiChannel = (typeof API_CHANNELS)[number];

/** The most messages one batch request takes. */
export const MAX_BATCH_MESSAGES = 10_000;

/** A client's own reference for a message (an order number): echoed back, filterable. */
const externalIdSchema = z.string().trim().min(1).max(200);
/** Values for the text's `{variables}` (`{telefone}` is always the recipient's number). */
const variablesSchema = z.record(z.string().regex(/^[\p{L}\p{N}_]{1,64}$/u), z.string().max(1024));

/** What every message of a request says, whatever the recipient. */
const contentFields = {
  channel: z.enum(API_CHANNELS),
  /** SMS (short and flash) and RCS text; may hold `{variables}`. */
  text: z.string().min(1).max(1600).optional(),
  /** WhatsApp: an approved template; its params may hold `{variables}`. */
  template: whatsappTemplateSchema.optional(),
  /** Voice torpedo: an uploaded audio… */
  audioId: z.uuid().optional(),
  /** …or text-to-speech (pt-BR). */
  tts: z.string().trim().min(1).max(1000).optional(),
  /** RCS: a text or a rich card, with suggestions. */
  rcs: rcsContentSchema.optional(),
  /** When to send (ISO 8601, never in the past); the sending window still applies. */
  scheduledAt: z.iso.datetime({ offset: true }).optional(),
  /** Days and hours (São Paulo) it may be sent in, as a campaign's; 09:00–21:00 Monday to Saturday when absent. */
  window: sendingWindowSchema.optional(),
};

/** `POST /api/v1/messages`: one message to one number. */
export const sendMessageRequestSchema = z.object({
  ...contentFields,
  /** A Brazilian phone in any spelling; normalised to E.164. */
  to: z.string().trim().min(1).max(40),
  variables: variablesSchema.optional(),
  externalId: externalIdSchema.optional(),
});
export type SendMessageRequest = z.input<typeof sendMessageRequestSchema>;
export type SendMessageInput = z.output<typeof sendMessageRequestSchema>;

export const sendMessageResultSchema = z.object({
  id: z.string(),
  status: z.literal('queued'),
  /** SMS parts (1 for the other channels). */
  parts: z.number(),
  /** Credits reserved for it (its parts). */
  credits: z.number(),
});
export type SendMessageResult = z.infer<typeof sendMessageResultSchema>;

/** `POST /api/v1/messages/batch`: one content to up to 10,000 numbers. */
export const sendBatchRequestSchema = z.object({
  ...contentFields,
  messages: z
    .array(
      z.object({
        to: z.string().trim().min(1).max(40),
        variables: variablesSchema.optional(),
        externalId: externalIdSchema.optional(),
      }),
    )
    .min(1)
    .max(MAX_BATCH_MESSAGES),
});
export type SendBatchRequest = z.input<typeof sendBatchRequestSchema>;
export type SendBatchInput = z.output<typeof sendBatchRequestSchema>;

export const sendBatchResultSchema = z.object({
  /** Null when no message was accepted (nothing was queued). */
  batchId: z.string().nullable(),
  accepted: z.array(z.object({ index: z.number(), id: z.string(), to: z.string(), externalId: z.string().nullable() })),
  /** Each refused item with an error code of the catalogue (INVALID_PHONE, RECIPIENT_OPTED_OUT, …). */
  rejected: z.array(z.object({ index: z.number(), code: z.string(), message: z.string() })),
  /** Credits reserved for the accepted messages. */
  credits: z.number(),
});
export type SendBatchResult = z.infer<typeof sendBatchResultSchema>;

/** `GET /api/v1/messages`: the newest first, in keyset pages. */
export const messageListQuerySchema = z.object({
  status: z.enum(MESSAGE_STATUSES).optional(),
  channel: z.enum(CHANNELS).optional(),
  externalId: externalIdSchema.optional(),
  /** Only messages created at or after this instant. */
  since: z.iso.datetime({ offset: true }).optional(),
  /** The `nextCursor` of the previous page, as given. */
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export type MessageListQuery = z.input<typeof messageListQuerySchema>;

export const messageListItemSchema = messageFieldsSchema.extend({
  reason: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export type MessageListItem = z.infer<typeof messageListItemSchema>;

export const messageListSchema = z.object({
  items: z.array(messageListItemSchema),
  /** Pass it as `cursor` for the next page; null on the last one. */
  nextCursor: z.string().nullable(),
});
export type MessageList = z.infer<typeof messageListSchema>;
