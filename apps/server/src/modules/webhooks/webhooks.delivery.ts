/**
 * The delivery loop, in every process that works jobs: claims due outbox rows (SKIP LOCKED, a
 * lease), posts each signed to its endpoint through `platform/http/outbound.ts` (SSRF rules, no
 * redirects, 10 s), logs the attempt and moves the row on: succeeded, retried with backoff, or
 * given up after 3 days. At most `perEndpoint` deliveries of one endpoint are in flight (across
 * processes, by the leases), so a slow receiver holds only its own slots: other customers'
 * deliveries and the sending path (which only writes outbox rows) never wait for it.
 *
 * At least once: a row is done only once its answer is recorded; a process dying mid-post lets
 * the lease lapse and the row is posted again, with the same `webhook-id` for the receiver to
 * deduplicate.
 */
import { WEBHOOK_RETRY_WINDOW_MS } from '@ecoa/shared';
import type { Clock } from '../../platform/clock/clock.ts';
import type { OutboundAnswer } from '../../platform/http/outbound.ts';
import type { Logger } from '../../platform/logger.ts';
import type { ClaimedDelivery, EndpointRow, WebhooksRepository } from './webhooks.repository.ts';
import { nextAttemptAt } from './webhooks.retries.ts';
import { webhookHeaders } from './webhooks.signing.ts';

export const DELIVERY_TIMEOUT_MS = 10_000;
/** A claim's lease: past the timeout with room, so only a dead process's rows are taken again. */
export const LEASE_MS = 60_000;
export const POLL_MS = 200;

export type PostWebhook = (url: string, body: string, headers: Record<string, string>) => Promise<OutboundAnswer>;

export type DeliveryOptions = {
  /** Deliveries in flight in this process. */
  concurrency: number;
  /** Deliveries of one endpoint in flight (across processes). */
  perEndpoint: number;
};

export function createWebhookDeliverer(deps: {
  repo: WebhooksRepository;
  clock: Clock;
  post: PostWebhook;
  logger: Logger;
  /** An endpoint failing for the whole retry window was disabled (the account is told). */
  onDisabled: (endpoint: EndpointRow) => Promise<void>;
  random?: () => number;
  options?: Partial<DeliveryOptions>;
}) {
  const { repo, clock, logger } = deps;
  const options: DeliveryOptions = { concurrency: 64, perEndpoint: 4, ...deps.options };
  const inFlight = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let stopping = false;
  let claiming: Promise<number> | undefined;

  async function deliver(d: ClaimedDelivery): Promise<void> {
    const startedAt = clock.now();
    const body = JSON.stringify(d.payload);
    const secrets = [d.secret];
    if (d.previousSecret && d.previousSecretExpiresAt && d.previousSecretExpiresAt > startedAt) {
      secrets.push(d.previousSecret);
    }
    const headers = webhookHeaders(secrets, d.eventId, startedAt, body);
    const t0 = performance.now();
    let statusCode: number | null = null;
    let response: string | null = null;
    let error: string | null = null;
    try {
      const answer = await deps.post(d.url, body, headers);
      statusCode = answer.status;
      response = answer.bodyStart;
    } catch (err) {
      error = err instanceof Error ? `${err.name}: ${err.message}`.slice(0, 500) : String(err).slice(0, 500);
    }
    const latencyMs = Math.round(performance.now() - t0);
    const at = clock.now();
    const succeeded = statusCode !== null && statusCode >= 200 && statusCode < 300;
    const next = succeeded ? null : nextAttemptAt(d.attempts + 1, at, d.retryFrom, deps.random);
    const { failingSince } = await repo.recordAttempt(d, {
      at,
      statusCode,
      latencyMs,
      response,
      error,
      succeeded,
      nextAttemptAt: next,
    });
    if (!succeeded && failingSince && at.getTime() - failingSince.getTime() >= WEBHOOK_RETRY_WINDOW_MS) {
      const disabled = await repo.disableFailing(
        d.endpointId,
        new Date(at.getTime() - WEBHOOK_RETRY_WINDOW_MS + 1),
        at,
      );
      if (disabled) {
        logger.warn(
          { endpointId: d.endpointId, userId: d.userId },
          'webhook endpoint disabled after failing for 3 days',
        );
        await deps.onDisabled(disabled).catch((err) => logger.error({ err }, 'webhook disable e-mail failed'));
      }
    }
  }

  function track(d: ClaimedDelivery) {
    const p = deliver(d)
      .catch((err) => logger.error({ err, deliveryId: d.id }, 'webhook delivery failed unexpectedly'))
      .finally(() => {
        inFlight.delete(p);
        if (running) schedule(0);
      });
    inFlight.add(p);
  }

  /** Claims what is due and free to go (up to the free slots) and starts it; returns how many. */
  async function claim(): Promise<number> {
    const free = options.concurrency - inFlight.size;
    if (free <= 0) return 0;
    const now = clock.now();
    const claimed = await repo.claimDue(now, new Date(now.getTime() + LEASE_MS), free, options.perEndpoint);
    for (const d of claimed) track(d);
    return claimed.length;
  }

  function schedule(ms: number) {
    if (!running || stopping) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(tick, ms);
  }

  async function tick() {
    timer = undefined;
    if (claiming) return;
    claiming = claim();
    try {
      const n = await claiming;
      schedule(n > 0 ? 0 : POLL_MS);
    } catch (err) {
      logger.error({ err }, 'webhook claim failed');
      schedule(POLL_MS * 5);
    } finally {
      claiming = undefined;
    }
  }

  return {
    /** Every due delivery posted, until none is due (tests, with their clock). */
    async drain(): Promise<void> {
      for (;;) {
        const n = await claim();
        if (n === 0 && inFlight.size === 0) return;
        if (inFlight.size > 0) await Promise.race(inFlight);
      }
    },
    /** One claim and the deliveries it started, awaited. */
    async runOnce(): Promise<number> {
      const n = await claim();
      await Promise.all([...inFlight]);
      return n;
    },
    /** Something may be due now (a publish): claim at once instead of at the next poll. */
    wake() {
      if (running && !claiming) schedule(10);
    },
    start() {
      if (running) return;
      running = true;
      stopping = false;
      schedule(0);
    },
    async stop() {
      stopping = true;
      running = false;
      if (timer) clearTimeout(timer);
      await claiming?.catch(() => {});
      await Promise.allSettled([...inFlight]);
    },
    inFlight: () => inFlight.size,
  };
}

export type WebhookDeliverer = ReturnType<typeof createWebhookDeliverer>;
