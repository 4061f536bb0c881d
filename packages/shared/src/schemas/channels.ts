import { z } from 'zod';
import { CHANNELS } from '../enums.ts';

/**
 * Where a message is (GET /api/v1/messages/:id): queued → submitting → sent → delivered | failed |
 * expired | unknown. A campaign's recipient may also end `opted_out` (the number asked to stop
 * after the campaign started: never sent, credits released) or `canceled` (the campaign was
 * canceled before it was sent: credits released).
 */
export const MESSAGE_STATUSES = [
  'queued',
  'submitting',
  'sent',
  'delivered',
  'failed',
  'expired',
  'unknown',
  'opted_out',
  'canceled',
] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** A step of a message's history: its statuses, and `read` when the channel reports it. */
export const MESSAGE_EVENT_STATUSES = [...MESSAGE_STATUSES, 'read'] as const;
export type MessageEventStatus = (typeof MESSAGE_EVENT_STATUSES)[number];

const rcsSuggestionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('reply'), text: z.string().trim().min(1).max(25) }),
  z.object({ kind: z.literal('url'), text: z.string().trim().min(1).max(25), url: z.url({ protocol: /^https?$/ }) }),
]);
export type RcsSuggestionInput = z.infer<typeof rcsSuggestionSchema>;

/** The content of an RCS message: a text, or a rich card; suggestions (chips) on either. */
export const rcsContentSchema = z
  .object({
    text: z.string().trim().min(1).max(3072).optional(),
    card: z
      .object({
        title: z.string().trim().min(1).max(200),
        description: z.string().trim().max(2000).optional(),
        imageUrl: z.url({ protocol: /^https$/ }).optional(),
        suggestions: z.array(rcsSuggestionSchema).max(4).optional(),
      })
      .optional(),
    suggestions: z.array(rcsSuggestionSchema).max(11).optional(),
  })
  .refine((c) => Boolean(c.text) !== Boolean(c.card), { message: 'Envie um texto ou um cartão.' });

export const whatsappTemplateSchema = z.object({
  name: z
    .string()
    .trim()
    .regex(/^[a-z0-9_]{1,512}$/, 'Nome de modelo inválido (letras minúsculas, números e _).'),
  language: z
    .string()
    .trim()
    .regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, 'Idioma inválido (ex.: pt_BR).'),
  params: z.array(z.string().trim().min(1).max(1024)).max(20).default([]),
});

/** `POST /api/v1/channels/test-send`: one message to one number through the real adapter. */
export const testSendRequestSchema = z.object({
  channel: z.enum(CHANNELS),
  /** A Brazilian phone in any spelling; normalised to E.164 by the server. */
  to: z.string().trim().min(8).max(40),
  /** SMS (short and flash) and RCS text. */
  text: z.string().min(1).max(1600).optional(),
  /** Voice torpedo and URA: an uploaded audio… */
  audioId: z.uuid().optional(),
  /** …or text-to-speech (pt-BR). */
  tts: z.string().trim().min(1).max(1000).optional(),
  /** URA: the digits the menu accepts. */
  options: z
    .array(z.string().regex(/^[0-9*#]$/))
    .max(12)
    .optional(),
  /** URA: the customer's URL that gets `{phone, digit, campaignId}` when a digit is pressed. */
  integrationUrl: z.url({ protocol: /^https?$/ }).optional(),
  template: whatsappTemplateSchema.optional(),
  rcs: rcsContentSchema.optional(),
});
export type TestSendRequest = z.input<typeof testSendRequestSchema>;
/** The request once validated (defaults applied): what the server works with. */
export type TestSendInput = z.output<typeof testSendRequestSchema>;

/**
 * A message's fields in every answer that shows one: the test send's and the message's own
 * (`GET /api/v1/messages/:id`, with its history) and each item of the sending API's list.
 */
export const messageFieldsSchema = z.object({
  id: z.string(),
  channel: z.enum(CHANNELS),
  to: z.string(),
  status: z.enum(MESSAGE_STATUSES),
  /** Credits it costs: SMS parts, 1 for the other channels. */
  parts: z.number(),
  /** The client's own reference (the sending API's `externalId`). */
  externalId: z.string().nullable(),
  /** The batch (or campaign) it was sent in; null for a test send. */
  batchId: z.string().nullable(),
  createdAt: z.string(),
});

export const messageSchema = messageFieldsSchema.extend({
  reason: z.string().optional(),
  events: z.array(
    z.object({
      status: z.enum(MESSAGE_EVENT_STATUSES),
      at: z.string(),
      reason: z.string().optional(),
      digits: z.string().optional(),
    }),
  ),
});
export type Message = z.infer<typeof messageSchema>;

/** `GET /api/v1/admin/channels`: each provider's health. */
export const providerHealthSchema = z.object({
  provider: z.string(),
  channels: z.array(z.enum(CHANNELS)),
  mode: z.enum(['simulator', 'real']),
  connected: z.boolean(),
  tpsLimit: z.number().nullable(),
  tpsInUse: z.number(),
  inFlight: z.number(),
  lastError: z.object({ message: z.string(), at: z.string() }).nullable(),
});
export type ProviderHealthDto = z.infer<typeof providerHealthSchema>;
