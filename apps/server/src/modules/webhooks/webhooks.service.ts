/**
 * The user's webhook endpoints (create with a secret shown once, list, change, delete, rotate
 * the secret with a 24 h overlap, send a test event), the delivery log and its replays, and the
 * `balance.low` thresholds.
 */
import {
  type BalanceThresholds,
  CREDIT_TYPES,
  WEBHOOK_SECRET_OVERLAP_MS,
  WEBHOOK_TEST_EVENT,
  type WebhookDeliveryPage,
  type WebhookEndpoint,
  type WebhookEndpointCreate,
  type WebhookEndpointPatch,
  type WebhookEndpointWithSecret,
} from '@ecoa/shared';
import type { Clock } from '../../platform/clock/clock.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { assertPublicUrl, OutboundRefused, type ResolveHost } from '../../platform/http/outbound.ts';
import { decodeCursor, encodeCursor, toDeliveryDto, toEndpointDto } from './webhooks.mappers.ts';
import type { WebhookPublisher } from './webhooks.publisher.ts';
import type { WebhooksRepository } from './webhooks.repository.ts';
import { newEventId, newWebhookSecret } from './webhooks.signing.ts';

export const MAX_ENDPOINTS_PER_USER = 20;

export type WebhooksServiceDeps = {
  repo: WebhooksRepository;
  publisher: WebhookPublisher;
  clock: Clock;
  /** A local trial or a test: http:// and private addresses allowed (config.allowPrivateOutbound). */
  allowPrivateOutbound: boolean;
  resolve?: ResolveHost;
  wake: () => void;
};

export function createWebhooksService(deps: WebhooksServiceDeps) {
  const { repo, clock } = deps;

  /** https (http too on a local trial), no credentials in it, and a public address (SSRF). */
  async function checkUrl(raw: string): Promise<string> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new AppError('WEBHOOK_URL_INVALID');
    }
    const allowedHttp = deps.allowPrivateOutbound && url.protocol === 'http:';
    if ((url.protocol !== 'https:' && !allowedHttp) || url.username || url.password) {
      throw new AppError('WEBHOOK_URL_INVALID');
    }
    try {
      await assertPublicUrl(url.toString(), { allowPrivate: deps.allowPrivateOutbound, resolve: deps.resolve });
    } catch (err) {
      if (err instanceof OutboundRefused && /private or local/.test(err.message)) {
        throw new AppError('WEBHOOK_URL_PRIVATE');
      }
      throw new AppError('WEBHOOK_URL_INVALID');
    }
    return url.toString();
  }

  async function owned(userId: string, id: string) {
    const row = await repo.findEndpoint(userId, id);
    if (!row) throw new AppError('WEBHOOK_ENDPOINT_NOT_FOUND');
    return row;
  }

  return {
    async create(userId: string, input: WebhookEndpointCreate): Promise<WebhookEndpointWithSecret> {
      const url = await checkUrl(input.url);
      if ((await repo.countEndpoints(userId)) >= MAX_ENDPOINTS_PER_USER) throw new AppError('WEBHOOK_ENDPOINT_LIMIT');
      const secret = newWebhookSecret();
      const now = clock.now();
      const row = await repo.insertEndpoint({
        userId,
        url,
        events: [...new Set(input.events)],
        description: input.description ?? '',
        secret,
        createdAt: now,
        updatedAt: now,
      });
      deps.publisher.forget(userId);
      return { ...toEndpointDto(row, now), secret };
    },

    async list(userId: string): Promise<WebhookEndpoint[]> {
      const now = clock.now();
      return (await repo.listEndpoints(userId)).map((r) => toEndpointDto(r, now));
    },

    async get(userId: string, id: string): Promise<WebhookEndpoint> {
      return toEndpointDto(await owned(userId, id), clock.now());
    },

    async update(userId: string, id: string, patch: WebhookEndpointPatch): Promise<WebhookEndpoint> {
      await owned(userId, id);
      const url = patch.url === undefined ? undefined : await checkUrl(patch.url);
      const now = clock.now();
      const row = await repo.updateEndpoint(userId, id, {
        ...(url !== undefined ? { url } : {}),
        ...(patch.events ? { events: [...new Set(patch.events)] } : {}),
        ...(patch.description !== undefined ? { description: patch.description } : {}),
        // Enabled again by the user: a fresh start (its failing streak and Ecoa's reason forgotten).
        ...(patch.enabled !== undefined
          ? { enabled: patch.enabled, disabledReason: null, ...(patch.enabled ? { failingSince: null } : {}) }
          : {}),
        updatedAt: now,
      });
      if (!row) throw new AppError('WEBHOOK_ENDPOINT_NOT_FOUND');
      deps.publisher.forget(userId);
      if (patch.enabled) deps.wake();
      return toEndpointDto(row, now);
    },

    async remove(userId: string, id: string): Promise<void> {
      if (!(await repo.deleteEndpoint(userId, id))) throw new AppError('WEBHOOK_ENDPOINT_NOT_FOUND');
      deps.publisher.forget(userId);
    },

    /** A new secret; the current one keeps signing beside it for 24 h (receivers switch meanwhile). */
    async rotateSecret(userId: string, id: string): Promise<WebhookEndpointWithSecret> {
      const current = await owned(userId, id);
      const now = clock.now();
      const secret = newWebhookSecret();
      const row = await repo.updateEndpoint(userId, id, {
        secret,
        previousSecret: current.secret,
        previousSecretExpiresAt: new Date(now.getTime() + WEBHOOK_SECRET_OVERLAP_MS),
        updatedAt: now,
      });
      if (!row) throw new AppError('WEBHOOK_ENDPOINT_NOT_FOUND');
      return { ...toEndpointDto(row, now), secret };
    },

    /** A `webhook.test` event to this endpoint only; its delivery shows in the log. */
    async sendTest(userId: string, id: string): Promise<{ eventId: string }> {
      await owned(userId, id);
      const at = clock.now();
      const eventId = newEventId();
      const payload = {
        id: eventId,
        type: WEBHOOK_TEST_EVENT,
        createdAt: at.toISOString(),
        data: { message: 'Ecoa webhook test' },
      };
      await repo.insertOutbox(
        [{ id: eventId, userId, type: WEBHOOK_TEST_EVENT, payload, createdAt: at }],
        [{ eventId, endpointId: id, userId, at }],
      );
      deps.wake();
      return { eventId };
    },

    async deliveries(
      userId: string,
      id: string,
      cursor: string | undefined,
      limit: number,
    ): Promise<WebhookDeliveryPage> {
      await owned(userId, id);
      const rows = await repo.listDeliveries(userId, id, decodeCursor(cursor), limit + 1);
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return { items: page.map(toDeliveryDto), nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
    },

    async replay(userId: string, deliveryId: string): Promise<void> {
      if (!(await repo.replayDelivery(userId, deliveryId, clock.now()))) {
        throw new AppError('WEBHOOK_DELIVERY_NOT_FOUND');
      }
      deps.wake();
    },

    async replayFailedSince(userId: string, id: string, since: Date): Promise<{ replayed: number }> {
      await owned(userId, id);
      const replayed = await repo.replayFailedSince(userId, id, since, clock.now());
      if (replayed > 0) deps.wake();
      return { replayed };
    },

    async balanceThresholds(userId: string): Promise<BalanceThresholds> {
      const rows = await repo.balanceThresholds(userId);
      return { thresholds: Object.fromEntries(rows.map((r) => [r.creditType, r.threshold])) };
    },

    async setBalanceThresholds(userId: string, input: BalanceThresholds): Promise<BalanceThresholds> {
      for (const type of CREDIT_TYPES) {
        const value = input.thresholds[type];
        if (value !== undefined) await repo.setBalanceThreshold(userId, type, value);
      }
      const rows = await repo.balanceThresholds(userId);
      return { thresholds: Object.fromEntries(rows.map((r) => [r.creditType, r.threshold])) };
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
