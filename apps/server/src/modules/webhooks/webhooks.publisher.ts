/**
 * `publish`: an event written with one outbox row per endpoint subscribed to it, in the caller's
 * transaction when given (the event exists exactly when the change it reports does). The status
 * path is hot (thousands of receipts a second), so who listens to what is cached per user for a
 * few seconds: a user without an endpoint for the event costs a map lookup, no SQL.
 */
import type { WebhookEventDataByType, WebhookEventType } from '@ecoa/shared';
import type { Clock } from '../../platform/clock/clock.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import type { WebhooksRepository } from './webhooks.repository.ts';
import { newEventId } from './webhooks.signing.ts';

/** How long another process's endpoint change may go unseen by this one's publish path. */
export const SUBSCRIPTION_CACHE_MS = 5_000;

export type PublishItem<T extends WebhookEventType = WebhookEventType> = {
  userId: string;
  type: T;
  data: WebhookEventDataByType[T];
};

export type Publish = <T extends WebhookEventType>(
  userId: string,
  type: T,
  data: WebhookEventDataByType[T],
  tx?: DbOrTx,
) => Promise<string | null>;

export type PublishMany = (items: PublishItem[], tx?: DbOrTx) => Promise<number>;

export function createWebhookPublisher(deps: {
  repo: WebhooksRepository;
  clock: Clock;
  /** Called after an outbox row is written outside a transaction, or when one may be due (wakes the loop). */
  wake: () => void;
}) {
  const { repo, clock } = deps;
  const cache = new Map<string, { endpoints: { id: string; events: string[] }[]; until: number }>();

  // Read in the caller's transaction when there is one: on PGlite (one connection) a read beside
  // an open transaction would wait for it forever.
  async function subscribers(userId: string, type: string, tx?: DbOrTx): Promise<string[]> {
    const now = Date.now();
    let entry = cache.get(userId);
    if (!entry || entry.until <= now) {
      entry = { endpoints: await repo.subscriptions(userId, tx), until: now + SUBSCRIPTION_CACHE_MS };
      cache.set(userId, entry);
      // A bounded cache: the hot users stay, a sweep drops the expired ones now and then.
      if (cache.size > 50_000) for (const [k, v] of cache) if (v.until <= now) cache.delete(k);
    }
    return entry.endpoints.filter((e) => e.events.includes(type)).map((e) => e.id);
  }

  /** Writes the events of `items` that someone listens to; returns how many were written. */
  const publishMany: PublishMany = async (items, tx) => {
    if (items.length === 0) return 0;
    const at = clock.now();
    const events: Parameters<WebhooksRepository['insertOutbox']>[0] = [];
    const deliveries: Parameters<WebhooksRepository['insertOutbox']>[1] = [];
    for (const item of items) {
      const endpoints = await subscribers(item.userId, item.type, tx);
      if (endpoints.length === 0) continue;
      const id = newEventId();
      const payload = { id, type: item.type, createdAt: at.toISOString(), data: item.data };
      events.push({ id, userId: item.userId, type: item.type, payload, createdAt: at });
      for (const endpointId of endpoints) deliveries.push({ eventId: id, endpointId, userId: item.userId, at });
    }
    if (events.length === 0) return 0;
    await repo.insertOutbox(events, deliveries, tx);
    deps.wake();
    return events.length;
  };

  const publish: Publish = async (userId, type, data, tx) => {
    const at = clock.now();
    const endpoints = await subscribers(userId, type, tx);
    if (endpoints.length === 0) return null;
    const id = newEventId();
    const payload = { id, type, createdAt: at.toISOString(), data };
    await repo.insertOutbox(
      [{ id, userId, type, payload, createdAt: at }],
      endpoints.map((endpointId) => ({ eventId: id, endpointId, userId, at })),
      tx,
    );
    deps.wake();
    return id;
  };

  return {
    publish,
    publishMany,
    /** Whether an endpoint of the user takes this event (cached; the hot paths ask before any work). */
    listens: async (userId: string, type: WebhookEventType, tx?: DbOrTx) =>
      (await subscribers(userId, type, tx)).length > 0,
    /** This process changed the user's endpoints: the next publish reads them again. */
    forget: (userId: string) => cache.delete(userId),
  };
}

export type WebhookPublisher = ReturnType<typeof createWebhookPublisher>;
