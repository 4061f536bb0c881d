/**
 * The outbox in the database: events and their deliveries written in the publisher's
 * transaction, claimed by the delivery loop, each attempt logged, the log's pages and replays.
 * Part of the webhooks repository (spread into it), kept apart to stay readable.
 */
import type { WebhookDeliveryStatus } from '@ecoa/shared';
import { and, desc, eq, gte, lt, or, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../platform/db/client.ts';
import { dateOf, rowsOf } from '../../platform/db/rows.ts';
import { webhookDeliveries, webhookEvents } from './webhooks.schema.ts';

export type DeliveryRow = typeof webhookDeliveries.$inferSelect & { eventType: string };

/** A delivery the loop took: what to post, where, signed by which secrets. */
export type ClaimedDelivery = {
  id: string;
  eventId: string;
  endpointId: string;
  userId: string;
  attempts: number;
  retryFrom: Date;
  payload: unknown;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
};

export type AttemptOutcome = {
  at: Date;
  statusCode: number | null;
  latencyMs: number;
  response: string | null;
  error: string | null;
  succeeded: boolean;
  /** Failed: when to try again (null: given up). */
  nextAttemptAt: Date | null;
};

const date = (v: string | Date | null) => (v === null ? null : new Date(v));

export function createDeliveryQueries(db: Database) {
  return {
    /** Events and their outbox rows, in the caller's transaction (two statements). */
    async insertOutbox(
      events: { id: string; userId: string; type: string; payload: unknown; createdAt: Date }[],
      deliveries: { eventId: string; endpointId: string; userId: string; at: Date }[],
      tx: DbOrTx = db,
    ): Promise<void> {
      if (events.length === 0) return;
      await tx.insert(webhookEvents).values(events);
      if (deliveries.length === 0) return;
      await tx
        .insert(webhookDeliveries)
        .values(
          deliveries.map((d) => ({
            eventId: d.eventId,
            endpointId: d.endpointId,
            userId: d.userId,
            nextAttemptAt: d.at,
            retryFrom: d.at,
            createdAt: d.at,
            updatedAt: d.at,
          })),
        )
        .onConflictDoNothing();
    },

    /**
     * Takes due deliveries for `leaseUntil` (SKIP LOCKED: another process takes others), at most
     * `perEndpoint` in flight per endpoint across processes, round-robin over endpoints so one
     * backlog never starves another customer's deliveries.
     */
    async claimDue(now: Date, leaseUntil: Date, limit: number, perEndpoint: number): Promise<ClaimedDelivery[]> {
      const rows = await rowsOf<{
        id: string;
        event_id: string;
        endpoint_id: string;
        user_id: string;
        attempts: number;
        retry_from: string | Date;
        payload: unknown;
        url: string;
        secret: string;
        previous_secret: string | null;
        previous_secret_expires_at: string | Date | null;
      }>(
        db.execute(sql`
          with inflight as (
            select endpoint_id, count(*)::int as n from webhook_deliveries
            where leased_until is not null and leased_until > ${now} and status = 'pending' group by endpoint_id
          ), candidates as (
            -- The oldest due rows of enabled endpoints that have a free slot: a window of a few
            -- rows per free slot (never the backlog sorted per claim: a claim follows every
            -- delivery), which a saturated endpoint stays out of; what it misses, the next claim takes.
            select d.id, d.endpoint_id, d.next_attempt_at
            from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id and e.enabled
            where d.status = 'pending' and d.next_attempt_at <= ${now}
              and (d.leased_until is null or d.leased_until <= ${now})
              and d.endpoint_id not in (select endpoint_id from inflight where n >= ${perEndpoint})
            order by d.next_attempt_at limit ${Math.min(1000, Math.max(1, limit) * perEndpoint)}
          ), ranked as (
            select c.id, c.endpoint_id, c.next_attempt_at,
              row_number() over (partition by c.endpoint_id order by c.next_attempt_at, c.id) as rn
            from candidates c
          ), chosen as (
            select r.id from ranked r left join inflight i on i.endpoint_id = r.endpoint_id
            where r.rn <= ${perEndpoint} - coalesce(i.n, 0)
            order by r.rn, r.next_attempt_at limit ${limit}
          ), locked as (
            select d.id from webhook_deliveries d where d.id in (select id from chosen) for update skip locked
          )
          update webhook_deliveries d set leased_until = ${leaseUntil}
          from locked, webhook_events ev, webhook_endpoints e
          where d.id = locked.id and ev.id = d.event_id and e.id = d.endpoint_id
          returning d.id, d.event_id, d.endpoint_id, d.user_id, d.attempts, d.retry_from, ev.payload,
            e.url, e.secret, e.previous_secret, e.previous_secret_expires_at`),
      );
      return rows.map((r) => ({
        id: r.id,
        eventId: r.event_id,
        endpointId: r.endpoint_id,
        userId: r.user_id,
        attempts: r.attempts,
        retryFrom: new Date(r.retry_from),
        payload: typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload,
        url: r.url,
        secret: r.secret,
        previousSecret: r.previous_secret,
        previousSecretExpiresAt: date(r.previous_secret_expires_at),
      }));
    },

    /**
     * An attempt logged and its delivery moved on (succeeded, retried later or given up), and the
     * endpoint's failing streak kept; returns the endpoint's streak start (null: it answers).
     */
    async recordAttempt(delivery: ClaimedDelivery, outcome: AttemptOutcome): Promise<{ failingSince: Date | null }> {
      const status: WebhookDeliveryStatus = outcome.succeeded
        ? 'succeeded'
        : outcome.nextAttemptAt
          ? 'pending'
          : 'failed';
      // One statement (the attempt, the delivery, the endpoint's failing streak): one round trip
      // per delivery instead of five. A success touches the endpoint row only to end a streak, so
      // concurrent deliveries of one busy endpoint do not queue on its row lock.
      const [endpoint] = await rowsOf<{ failing_since: string | Date | null }>(
        db.execute(sql`
          with attempt as (
            insert into webhook_attempts (delivery_id, attempted_at, status_code, latency_ms, response, error)
            values (${delivery.id}, ${outcome.at}, ${outcome.statusCode}, ${outcome.latencyMs}, ${outcome.response}, ${outcome.error})
          ), delivery as (
            update webhook_deliveries set status = ${status}, attempts = attempts + 1,
              next_attempt_at = ${status === 'pending' ? outcome.nextAttemptAt : null}::timestamptz,
              leased_until = null, last_status_code = ${outcome.statusCode}, last_latency_ms = ${outcome.latencyMs},
              last_response = ${outcome.response}, last_error = ${outcome.error},
              last_attempt_at = ${outcome.at}, updated_at = ${outcome.at}
            where id = ${delivery.id}
          )
          update webhook_endpoints
          set failing_since = ${outcome.succeeded ? sql`null` : sql`coalesce(failing_since, ${outcome.at}::timestamptz)`}
          where id = ${delivery.endpointId} ${outcome.succeeded ? sql`and failing_since is not null` : sql``}
          returning failing_since`),
      );
      if (outcome.succeeded || !endpoint?.failing_since) return { failingSince: null };
      const since = endpoint.failing_since;
      return { failingSince: dateOf(since) };
    },

    /** The delivery log of an endpoint, newest first, after the keyset cursor. */
    async listDeliveries(
      userId: string,
      endpointId: string,
      after: { createdAt: Date; id: string } | undefined,
      limit: number,
    ): Promise<DeliveryRow[]> {
      const d = webhookDeliveries;
      return db
        .select({ delivery: d, eventType: webhookEvents.type })
        .from(d)
        .innerJoin(webhookEvents, eq(webhookEvents.id, d.eventId))
        .where(
          and(
            eq(d.userId, userId),
            eq(d.endpointId, endpointId),
            after
              ? or(lt(d.createdAt, after.createdAt), and(eq(d.createdAt, after.createdAt), lt(d.id, after.id)))
              : undefined,
          ),
        )
        .orderBy(desc(d.createdAt), desc(d.id))
        .limit(limit)
        .then((rows) => rows.map((r) => ({ ...r.delivery, eventType: r.eventType })));
    },

    /** A delivery back in the queue now, its retry window starting again (same event id). */
    async replayDelivery(userId: string, id: string, now: Date): Promise<boolean> {
      const rows = await db
        .update(webhookDeliveries)
        .set({ status: 'pending', nextAttemptAt: now, retryFrom: now, leasedUntil: null, updatedAt: now })
        .where(and(eq(webhookDeliveries.userId, userId), eq(webhookDeliveries.id, id)))
        .returning({ id: webhookDeliveries.id });
      return rows.length > 0;
    },

    /** Every delivery of the endpoint that failed for good since `since`, queued again. */
    async replayFailedSince(userId: string, endpointId: string, since: Date, now: Date): Promise<number> {
      const rows = await db
        .update(webhookDeliveries)
        .set({ status: 'pending', nextAttemptAt: now, retryFrom: now, leasedUntil: null, updatedAt: now })
        .where(
          and(
            eq(webhookDeliveries.userId, userId),
            eq(webhookDeliveries.endpointId, endpointId),
            eq(webhookDeliveries.status, 'failed'),
            gte(webhookDeliveries.createdAt, since),
          ),
        )
        .returning({ id: webhookDeliveries.id });
      return rows.length;
    },
  };
}
