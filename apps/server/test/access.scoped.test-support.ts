import type { ApiScope } from '@ecoa/shared';

/**
 * The developers' API: every route an API key may call, and the scope it needs. The access matrix
 * (access.scopes.test.ts) fails on a route guarded by `requireScope` that is not listed here, and
 * the OpenAPI test (openapi.examples.test.ts) on one of these without examples.
 */
export const SCOPED: Record<string, ApiScope> = {
  'GET /api/v1/campaigns': 'campaigns:read',
  'GET /api/v1/campaigns/:id': 'campaigns:read',
  'GET /api/v1/campaigns/:id/estimate': 'campaigns:read',
  'GET /api/v1/campaigns/:id/messages': 'campaigns:read',
  'GET /api/v1/campaigns/:id/export': 'campaigns:read',
  'GET /api/v1/campaigns/:id/timeline': 'campaigns:read',
  'POST /api/v1/campaigns': 'campaigns:write',
  'PATCH /api/v1/campaigns/:id': 'campaigns:write',
  'POST /api/v1/campaigns/:id/start': 'campaigns:write',
  'POST /api/v1/campaigns/:id/pause': 'campaigns:write',
  'POST /api/v1/campaigns/:id/resume': 'campaigns:write',
  'POST /api/v1/campaigns/:id/cancel': 'campaigns:write',
  'POST /api/v1/campaigns/:id/duplicate': 'campaigns:write',
  'POST /api/v1/lists': 'lists:write',
  'POST /api/v1/lists/preview': 'lists:write',
  // A list's import progress: whoever imports a list through the API waits for it here.
  'GET /api/v1/lists/:id': 'lists:write',
  'PATCH /api/v1/lists/:id': 'lists:write',
  'DELETE /api/v1/lists/:id': 'lists:write',
  'GET /api/v1/messages/:id': 'messages:read',
  'GET /api/v1/messages': 'messages:read',
  'POST /api/v1/messages': 'messages:send',
  'POST /api/v1/messages/batch': 'messages:send',
  'DELETE /api/v1/messages/:id': 'messages:send',
  'GET /api/v1/replies': 'messages:read',
  'GET /api/v1/replies.csv': 'messages:read',
  // Marking a reply handled changes only the inbox's own flag: whoever reads the inbox keeps it.
  'PATCH /api/v1/replies/:id': 'messages:read',
  'POST /api/v1/replies/:id/answer': 'messages:send',
  'POST /api/v1/webhook-endpoints': 'webhooks:manage',
  'GET /api/v1/webhook-endpoints': 'webhooks:manage',
  'GET /api/v1/webhook-endpoints/:id': 'webhooks:manage',
  'PATCH /api/v1/webhook-endpoints/:id': 'webhooks:manage',
  'DELETE /api/v1/webhook-endpoints/:id': 'webhooks:manage',
  'POST /api/v1/webhook-endpoints/:id/rotate-secret': 'webhooks:manage',
  'POST /api/v1/webhook-endpoints/:id/test': 'webhooks:manage',
  'GET /api/v1/webhook-endpoints/:id/deliveries': 'webhooks:manage',
  'POST /api/v1/webhook-endpoints/:id/replay': 'webhooks:manage',
  'POST /api/v1/webhook-deliveries/:id/replay': 'webhooks:manage',
  'GET /api/v1/balance-alerts': 'webhooks:manage',
  'PUT /api/v1/balance-alerts': 'webhooks:manage',
};
