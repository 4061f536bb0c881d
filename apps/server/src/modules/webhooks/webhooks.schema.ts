import { CREDIT_TYPES, WEBHOOK_DELIVERY_STATUSES } from '@ecoa/shared';
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, unique, uuid } from 'drizzle-orm/pg-core';
import { ownedBy, randomId, timestamps, timestamptz } from '../../platform/db/columns.ts';
import { users } from '../users/index.ts';

/** Where a user wants events posted, and the secret that signs them (kept to sign; shown once). */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: randomId(),
    userId: ownedBy(users, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    events: text('events').array().notNull(),
    description: text('description').notNull().default(''),
    enabled: boolean('enabled').notNull().default(true),
    /** `whsec_<base64>`: the Standard Webhooks secret. */
    secret: text('secret').notNull(),
    /** The secret before the last rotation: it keeps signing (a second signature) until it expires. */
    previousSecret: text('previous_secret'),
    previousSecretExpiresAt: timestamptz('previous_secret_expires_at'),
    /** The first failure of the current failing streak (null once a delivery succeeds). */
    failingSince: timestamptz('failing_since'),
    /** `failing`: disabled by Ecoa after failing for the retry window; null otherwise. */
    disabledReason: text('disabled_reason'),
    ...timestamps(),
  },
  (t) => [index('webhook_endpoints_user_idx').on(t.userId, t.createdAt)],
);

/** An event, stored once whatever the number of endpoints: its id is the `webhook-id` header. */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    /** `evt_…`. */
    id: text('id').primaryKey(),
    userId: ownedBy(users, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    /** The envelope posted as is: `{id, type, createdAt, data}`. */
    payload: jsonb('payload').notNull(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [index('webhook_events_user_created_idx').on(t.userId, t.createdAt)],
);

/** One event to one endpoint: the outbox row the delivery loop claims, retries and logs. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: randomId(),
    eventId: text('event_id')
      .notNull()
      .references(() => webhookEvents.id, { onDelete: 'cascade' }),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    userId: ownedBy(users, { onDelete: 'cascade' }),
    status: text('status', { enum: WEBHOOK_DELIVERY_STATUSES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** When the next attempt is due (null once it succeeded or gave up). */
    nextAttemptAt: timestamptz('next_attempt_at'),
    /** A worker holds it until then (its process died: another takes it after). */
    leasedUntil: timestamptz('leased_until'),
    /** Retries last 3 days from here: the event's time, or the replay's. */
    retryFrom: timestamptz('retry_from').notNull(),
    lastStatusCode: integer('last_status_code'),
    lastLatencyMs: integer('last_latency_ms'),
    lastResponse: text('last_response'),
    lastError: text('last_error'),
    lastAttemptAt: timestamptz('last_attempt_at'),
    ...timestamps(),
  },
  (t) => [
    unique('webhook_deliveries_event_endpoint_key').on(t.eventId, t.endpointId),
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`status = 'pending'`),
    index('webhook_deliveries_endpoint_log_idx').on(t.endpointId, t.createdAt, t.id),
    // The deliveries in flight (a lease held): few, counted per endpoint by every claim.
    index('webhook_deliveries_leased_idx').on(t.endpointId).where(sql`leased_until is not null`),
  ],
);

/** Every attempt of a delivery: status, latency, the first 1 KB of the answer, the error. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: randomId(),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attemptedAt: timestamptz('attempted_at').notNull(),
    statusCode: integer('status_code'),
    latencyMs: integer('latency_ms').notNull(),
    response: text('response'),
    error: text('error'),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId, t.attemptedAt)],
);

/** `balance.low`: the user's threshold per credit type; `below` stops it firing again until the balance climbs back. */
export const balanceAlerts = pgTable(
  'balance_alerts',
  {
    userId: ownedBy(users, { onDelete: 'cascade' }),
    creditType: text('credit_type', { enum: CREDIT_TYPES }).notNull(),
    threshold: integer('threshold').notNull(),
    below: boolean('below').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.userId, t.creditType] })],
);
