/**
 * What Ecoa posts to a webhook endpoint: `{id, type, createdAt, data}`, one schema per event type,
 * each with an example. The server publishes `data` typed by these schemas, and the OpenAPI
 * document lists them under `webhooks` (a test checks every example against its schema there).
 */
import { z } from 'zod';
import { CHANNELS, CREDIT_TYPES } from '../enums.ts';
import {
  WEBHOOK_CAMPAIGN_STATUSES,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_MESSAGE_STATUSES,
  WEBHOOK_TEST_EVENT,
  type WebhookEventType,
} from './webhooks.ts';

const at = z.string().describe('ISO 8601 date-time');

const messageStatusData = z.object({
  messageId: z.string(),
  channel: z.enum(CHANNELS),
  to: z.string().describe('E.164'),
  status: z.enum(WEBHOOK_MESSAGE_STATUSES),
  /** The carrier's or Ecoa's reason for a failed, expired or unknown outcome. */
  reason: z.string().nullable(),
  parts: z.number(),
  campaignId: z.string().nullable(),
  at,
});

const messageReplyData = z.object({
  replyId: z.string(),
  from: z.string().describe('E.164'),
  channel: z.enum(CHANNELS).nullable(),
  text: z.string(),
  /** The message this answers (the last one sent to that number), when known. */
  inReplyTo: z.object({ messageId: z.string(), campaignId: z.string().nullable() }).nullable(),
  receivedAt: at,
});

const messageOptOutData = z.object({
  phone: z.string().describe('E.164'),
  source: z.literal('reply'),
  replyId: z.string(),
  at,
});

/** A click on a tracked link (a campaign's `{link}`) or a rotating link; what is unknown is null. */
const linkClickData = z.object({
  linkId: z.string().nullable(),
  slug: z.string().nullable(),
  url: z.string().nullable(),
  campaignId: z.string().nullable(),
  messageId: z.string().nullable(),
  to: z.string().nullable(),
  at,
});

const uraDigitsData = z.object({
  messageId: z.string(),
  to: z.string().describe('E.164'),
  digits: z.string(),
  campaignId: z.string().nullable(),
});

const campaignStatusData = z.object({
  campaignId: z.string(),
  name: z.string(),
  status: z.enum(WEBHOOK_CAMPAIGN_STATUSES),
  counts: z.object({
    total: z.number(),
    sent: z.number(),
    delivered: z.number(),
    failed: z.number(),
    pending: z.number(),
  }),
  at,
});

const balanceLowData = z.object({
  creditType: z.enum(CREDIT_TYPES),
  /** Credits left (BALANCE: centavos). */
  balance: z.number(),
  threshold: z.number(),
  at,
});

const webhookTestData = z.object({ message: z.string() });

export type MessageStatusEventData = z.infer<typeof messageStatusData>;
export type MessageReplyEventData = z.infer<typeof messageReplyData>;
export type MessageOptOutEventData = z.infer<typeof messageOptOutData>;
export type LinkClickEventData = z.infer<typeof linkClickData>;
export type UraDigitsEventData = z.infer<typeof uraDigitsData>;
export type CampaignStatusEventData = z.infer<typeof campaignStatusData>;
export type BalanceLowEventData = z.infer<typeof balanceLowData>;
export type WebhookTestEventData = z.infer<typeof webhookTestData>;

export type WebhookEventDataByType = {
  'message.status': MessageStatusEventData;
  'message.reply': MessageReplyEventData;
  'message.opt_out': MessageOptOutEventData;
  'link.click': LinkClickEventData;
  'ura.digits': UraDigitsEventData;
  'campaign.status': CampaignStatusEventData;
  'balance.low': BalanceLowEventData;
};

/** What the receiver gets as the POST body. */
export type WebhookEnvelope<T extends WebhookEventType | typeof WEBHOOK_TEST_EVENT = WebhookEventType> = {
  id: string;
  type: T;
  createdAt: string;
  data: T extends WebhookEventType ? WebhookEventDataByType[T] : WebhookTestEventData;
};

const campaignId = '3f6c1a52-8d0e-4b7a-9c1d-2e5f7a8b9c0d';
const messageId = '9b2e4c6d-1a3f-4e5b-8c7d-6f0a1b2c3d4e';
const replyId = 'c4d5e6f7-0a1b-4c2d-9e3f-5a6b7c8d9e0f';

/** One example of each event's `data`, as Ecoa sends it. */
const EXAMPLES: { [T in WebhookEventType | typeof WEBHOOK_TEST_EVENT]: WebhookEnvelope<T>['data'] } = {
  'message.status': {
    messageId,
    channel: 'sms_short',
    to: '+5511987654321',
    status: 'delivered',
    reason: null,
    parts: 1,
    campaignId: null,
    at: '2026-11-27T14:03:12.000Z',
  },
  'message.reply': {
    replyId,
    from: '+5511987654321',
    channel: 'sms_short',
    text: 'Pode entregar depois das 18h?',
    inReplyTo: { messageId, campaignId: null },
    receivedAt: '2026-11-27T14:10:40.000Z',
  },
  'message.opt_out': { phone: '+5511987654321', source: 'reply', replyId, at: '2026-11-27T14:12:05.000Z' },
  'link.click': {
    linkId: null,
    slug: null,
    url: 'https://loja.example.com.br/pedido/1234',
    campaignId,
    messageId,
    to: '+5511987654321',
    at: '2026-11-27T14:20:00.000Z',
  },
  'ura.digits': { messageId, to: '+5511987654321', digits: '1', campaignId },
  'campaign.status': {
    campaignId,
    name: 'Black Friday 2026',
    status: 'completed',
    counts: { total: 1000, sent: 12, delivered: 968, failed: 20, pending: 0 },
    at: '2026-11-27T16:00:00.000Z',
  },
  'balance.low': { creditType: 'SMSSHORT', balance: 480, threshold: 500, at: '2026-11-27T16:05:00.000Z' },
  [WEBHOOK_TEST_EVENT]: { message: 'Ecoa webhook test' },
};

const DATA = {
  'message.status': messageStatusData,
  'message.reply': messageReplyData,
  'message.opt_out': messageOptOutData,
  'link.click': linkClickData,
  'ura.digits': uraDigitsData,
  'campaign.status': campaignStatusData,
  'balance.low': balanceLowData,
  [WEBHOOK_TEST_EVENT]: webhookTestData,
};

const envelope = (type: keyof typeof DATA) =>
  z
    .object({
      /** The `webhook-id` header too: the same event retried or replayed keeps it. */
      id: z.string(),
      type: z.literal(type),
      createdAt: at,
      data: DATA[type],
    })
    .meta({
      examples: [
        { id: 'evt_x7Qm2vR9kLp4sT1wYb8nZg', type, createdAt: '2026-11-27T14:03:12.000Z', data: EXAMPLES[type] },
      ],
    });

/** Every event Ecoa posts (and `webhook.test`, sent by "send test event"), its envelope schema with an example. */
export const WEBHOOK_EVENT_SCHEMAS = Object.fromEntries(
  ([...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT] as const).map((type) => [type, envelope(type)]),
) as Record<WebhookEventType | typeof WEBHOOK_TEST_EVENT, ReturnType<typeof envelope>>;
