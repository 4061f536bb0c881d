import type {
  WebhookDeliveryPage,
  WebhookEndpoint,
  WebhookEndpointCreate,
  WebhookEndpointPatch,
  WebhookEndpointWithSecret,
} from '@ecoa/shared';
import { apiRequest } from '../../platform/api';

const base = '/api/v1/webhook-endpoints';

export const webhooksApi = {
  list: () => apiRequest<WebhookEndpoint[]>(base),
  create: (input: WebhookEndpointCreate) =>
    apiRequest<WebhookEndpointWithSecret>(base, { method: 'POST', body: input }),
  update: (id: string, patch: WebhookEndpointPatch) =>
    apiRequest<WebhookEndpoint>(`${base}/${id}`, { method: 'PATCH', body: patch }),
  remove: (id: string) => apiRequest<void>(`${base}/${id}`, { method: 'DELETE' }),
  rotateSecret: (id: string) =>
    apiRequest<WebhookEndpointWithSecret>(`${base}/${id}/rotate-secret`, { method: 'POST' }),
  sendTest: (id: string) => apiRequest<{ eventId: string }>(`${base}/${id}/test`, { method: 'POST' }),
  deliveries: (id: string, cursor?: string) =>
    apiRequest<WebhookDeliveryPage>(`${base}/${id}/deliveries`, {
      query: { limit: 20, ...(cursor ? { cursor } : {}) },
    }),
  replay: (deliveryId: string) =>
    apiRequest<void>(`/api/v1/webhook-deliveries/${deliveryId}/replay`, { method: 'POST' }),
  replaySince: (id: string, since: string) =>
    apiRequest<{ replayed: number }>(`${base}/${id}/replay`, { method: 'POST', body: { since } }),
};
