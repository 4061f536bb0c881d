/**
 * Webhooks to the customer (issue 23): the endpoints a user registers, the events Ecoa posts to
 * them (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`), the delivery
 * log, and the balance thresholds behind `balance.low`.
 */
import { z } from 'zod';
import { CREDIT_TYPES } from '../enums.ts';

export const WEBHOOK_EVENT_TYPES = [
  'message.status',
  'message.reply',
  'message.opt_out',
  'link.click',
  'ura.digits',
  'campaign.status',
  'balance.low',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** Only sent by "send test event"; never subscribed to. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** The message statuses `message.status` reports (the ones a customer acts on). */
export const WEBHOOK_MESSAGE_STATUSES = ['sent', 'delivered', 'failed', 'expired', 'unknown'] as const;
export const WEBHOOK_CAMPAIGN_STATUSES = ['started', 'paused', 'completed', 'canceled'] as const;

export const WEBHOOK_URL_MAX = 2000;
export const WEBHOOK_DESCRIPTION_MAX = 200;
/** How long a rotated-out secret keeps signing beside the new one. */
export const WEBHOOK_SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;
/** How long a delivery is retried, and how long an endpoint may fail before it is disabled. */
export const WEBHOOK_RETRY_WINDOW_MS = 3 * 24 * 60 * 60 * 1000;

// The event payloads (`{id, type, createdAt, data}`) are zod schemas in webhook-events.ts.

// ---- API shapes ----

export const webhookEndpointCreateSchema = z.object({
  url: z.string().trim().min(1).max(WEBHOOK_URL_MAX),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)).min(1).max(WEBHOOK_EVENT_TYPES.length),
  description: z.string().trim().max(WEBHOOK_DESCRIPTION_MAX).optional(),
});
export type WebhookEndpointCreate = z.infer<typeof webhookEndpointCreateSchema>;

/**
 * The web's endpoint form: the create body's rules, the URL typed as an http(s) address (the
 * server then parses it and refuses one that is not https or not public).
 */
export const webhookEndpointFormSchema = webhookEndpointCreateSchema.extend({
  url: webhookEndpointCreateSchema.shape.url.regex(/^https?:\/\/\S+$/),
});

export const webhookEndpointPatchSchema = z.object({
  url: z.string().trim().min(1).max(WEBHOOK_URL_MAX).optional(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)).min(1).max(WEBHOOK_EVENT_TYPES.length).optional(),
  description: z.string().trim().max(WEBHOOK_DESCRIPTION_MAX).optional(),
  enabled: z.boolean().optional(),
});
export type WebhookEndpointPatch = z.infer<typeof webhookEndpointPatchSchema>;

export const webhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  description: z.string(),
  enabled: z.boolean(),
  /** Why it was disabled by Ecoa (`failing`), null when enabled or disabled by the user. */
  disabledReason: z.string().nullable(),
  /** Since when every delivery has failed; null while it answers. */
  failingSince: z.string().nullable(),
  /** Until when the previous secret still signs (after a rotation). */
  previousSecretExpiresAt: z.string().nullable(),
  createdAt: z.string(),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

/** The create and rotate answers: the secret, shown once. */
export const webhookEndpointWithSecretSchema = webhookEndpointSchema.extend({ secret: z.string() });
export type WebhookEndpointWithSecret = z.infer<typeof webhookEndpointWithSecretSchema>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

export const webhookDeliverySchema = z.object({
  id: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number(),
  /** The last attempt: HTTP status (null: no answer), latency, start of the answer, error. */
  lastStatusCode: z.number().nullable(),
  lastLatencyMs: z.number().nullable(),
  lastResponse: z.string().nullable(),
  lastError: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

/** A keyset page of the delivery log, newest first; `nextCursor` null on the last page. */
export const webhookDeliveryPageSchema = z.object({
  items: z.array(webhookDeliverySchema),
  nextCursor: z.string().nullable(),
});
export type WebhookDeliveryPage = z.infer<typeof webhookDeliveryPageSchema>;

export const webhookReplaySinceSchema = z.object({ since: z.iso.datetime({ offset: true }) });

/** `balance.low`: the balance under which the event fires, per credit type (null: no alert). */
export const balanceThresholdsSchema = z.object({
  thresholds: z.partialRecord(z.enum(CREDIT_TYPES), z.number().int().min(0).max(1_000_000_000).nullable()),
});
export type BalanceThresholds = z.infer<typeof balanceThresholdsSchema>;
