/**
 * The webhooks module's database: the endpoints and balance thresholds
 * (webhooks.endpoints.repository.ts) and the outbox, its deliveries and their log
 * (webhooks.deliveries.repository.ts), as one repository.
 */
import type { Database } from '../../platform/db/client.ts';
import { createDeliveryQueries } from './webhooks.deliveries.repository.ts';
import { createEndpointQueries } from './webhooks.endpoints.repository.ts';

export type {
  AttemptOutcome,
  ClaimedDelivery,
  DeliveryRow,
} from './webhooks.deliveries.repository.ts';
export type { EndpointRow } from './webhooks.endpoints.repository.ts';

export function createWebhooksRepository(db: Database) {
  return { ...createEndpointQueries(db), ...createDeliveryQueries(db) };
}

export type WebhooksRepository = ReturnType<typeof createWebhooksRepository>;
