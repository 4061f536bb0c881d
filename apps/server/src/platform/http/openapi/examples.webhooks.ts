import type {
  BalanceThresholds,
  WebhookDeliveryPage,
  WebhookEndpoint,
  WebhookEndpointCreate,
  WebhookEndpointPatch,
  WebhookEndpointWithSecret,
} from '@ecoa/shared';
import { IDS, type RouteExamples } from './examples.types.ts';

const endpoint = {
  id: IDS.endpoint,
  url: 'https://erp.example.com.br/ecoa/webhooks',
  events: ['message.status', 'message.reply'],
  description: 'ERP',
  enabled: true,
  disabledReason: null,
  failingSince: null,
  previousSecretExpiresAt: null,
  createdAt: '2026-11-27T10:00:00.000Z',
} satisfies WebhookEndpoint;

const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const thresholds = { thresholds: { SMSSHORT: 500, BALANCE: 10000 } } satisfies BalanceThresholds;

export const WEBHOOK_ROUTE_EXAMPLES: Record<string, RouteExamples> = {
  'POST /api/v1/webhook-endpoints': {
    body: {
      url: 'https://erp.example.com.br/ecoa/webhooks',
      events: ['message.status', 'message.reply'],
      description: 'ERP',
    } satisfies WebhookEndpointCreate,
    responses: { 201: { ...endpoint, secret } satisfies WebhookEndpointWithSecret },
  },
  'GET /api/v1/webhook-endpoints': { responses: { 200: [endpoint] } },
  'GET /api/v1/webhook-endpoints/:id': { responses: { 200: endpoint } },
  'PATCH /api/v1/webhook-endpoints/:id': {
    body: { events: ['message.status', 'message.reply', 'message.opt_out'] } satisfies WebhookEndpointPatch,
    responses: {
      200: { ...endpoint, events: ['message.status', 'message.reply', 'message.opt_out'] } satisfies WebhookEndpoint,
    },
  },
  'DELETE /api/v1/webhook-endpoints/:id': { responses: { 204: null } },
  'POST /api/v1/webhook-endpoints/:id/rotate-secret': {
    responses: {
      200: {
        ...endpoint,
        previousSecretExpiresAt: '2026-11-28T15:00:00.000Z',
        secret: 'whsec_3q2+7w8fKzXcVbNmLkJhGfDsApOiUyTr',
      } satisfies WebhookEndpointWithSecret,
    },
  },
  'POST /api/v1/webhook-endpoints/:id/test': { responses: { 202: { eventId: 'evt_x7Qm2vR9kLp4sT1wYb8nZg' } } },
  'GET /api/v1/webhook-endpoints/:id/deliveries': {
    responses: {
      200: {
        items: [
          {
            id: IDS.delivery,
            eventId: 'evt_x7Qm2vR9kLp4sT1wYb8nZg',
            eventType: 'message.status',
            status: 'succeeded',
            attempts: 1,
            lastStatusCode: 200,
            lastLatencyMs: 84,
            lastResponse: 'ok',
            lastError: null,
            lastAttemptAt: '2026-11-27T14:03:12.300Z',
            nextAttemptAt: null,
            createdAt: '2026-11-27T14:03:12.000Z',
          },
        ],
        nextCursor: null,
      } satisfies WebhookDeliveryPage,
    },
  },
  'POST /api/v1/webhook-endpoints/:id/replay': {
    body: { since: '2026-11-26T00:00:00-03:00' },
    responses: { 202: { replayed: 3 } },
  },
  'POST /api/v1/webhook-deliveries/:id/replay': { responses: { 202: null } },
  'GET /api/v1/balance-alerts': { responses: { 200: thresholds } },
  'PUT /api/v1/balance-alerts': { body: thresholds, responses: { 200: thresholds } },
};
