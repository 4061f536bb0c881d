import type { WebhookDelivery, WebhookEndpoint, WebhookEventType } from '@ecoa/shared';
import { isoOrNull } from '../../platform/db/rows.ts';
import type { DeliveryRow, EndpointRow } from './webhooks.repository.ts';

/** An endpoint as the API shows it: never its secret. */
export function toEndpointDto(row: EndpointRow, now: Date): WebhookEndpoint {
  const overlap = row.previousSecretExpiresAt && row.previousSecretExpiresAt > now ? row.previousSecretExpiresAt : null;
  return {
    id: row.id,
    url: row.url,
    events: row.events as WebhookEventType[],
    description: row.description,
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    failingSince: isoOrNull(row.failingSince),
    previousSecretExpiresAt: isoOrNull(overlap),
    createdAt: row.createdAt.toISOString(),
  };
}

export function toDeliveryDto(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    eventId: row.eventId,
    eventType: row.eventType,
    status: row.status,
    attempts: row.attempts,
    lastStatusCode: row.lastStatusCode,
    lastLatencyMs: row.lastLatencyMs,
    lastResponse: row.lastResponse,
    lastError: row.lastError,
    lastAttemptAt: isoOrNull(row.lastAttemptAt),
    nextAttemptAt: isoOrNull(row.nextAttemptAt),
    createdAt: row.createdAt.toISOString(),
  };
}

/** The log's keyset cursor: the last row's time and id, opaque to the client. */
export function encodeCursor(row: { createdAt: Date; id: string }): string {
  return Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString('base64url');
}

export function decodeCursor(cursor: string | undefined): { createdAt: Date; id: string } | undefined {
  if (!cursor) return undefined;
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(at ?? '');
  if (!id || Number.isNaN(createdAt.getTime()) || !/^[0-9a-f-]{36}$/i.test(id)) return undefined;
  return { createdAt, id };
}
