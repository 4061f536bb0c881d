/**
 * Webhooks to the customer as the composition root wires them: the endpoints' API, `publish`
 * (what the other modules call where their changes happen), and the delivery loop the processes
 * that work jobs start.
 */
import type { CreditType } from '@ecoa/shared';
import type { Clock } from '../../platform/clock/clock.ts';
import type { Config } from '../../platform/config/config.ts';
import type { DbHandle, DbOrTx } from '../../platform/db/client.ts';
import type { RegisterRoutes } from '../../platform/http/module-routes.ts';
import { postOutbound, type ResolveHost } from '../../platform/http/outbound.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import {
  createWebhookDeliverer,
  DELIVERY_TIMEOUT_MS,
  type DeliveryOptions,
  type PostWebhook,
} from './webhooks.delivery.ts';
import { endpointDisabledEmail } from './webhooks.emails.ts';
import { createWebhookPublisher, type Publish, type PublishMany } from './webhooks.publisher.ts';
import { createWebhooksRepository } from './webhooks.repository.ts';
import { registerWebhooksRoutes } from './webhooks.routes.ts';
import { createWebhooksService, type WebhooksService } from './webhooks.service.ts';
import { webhookSources } from './webhooks.sources.ts';

/** A balance moved (the ledger, in its transaction): `balance.low` when it just crossed the user's threshold. */
export type BalanceMoved = (
  change: { userId: string; type: CreditType; available: number },
  tx: DbOrTx,
) => Promise<void>;

export type WebhooksModule = {
  service: WebhooksService;
  publish: Publish;
  publishMany: PublishMany;
  balanceMoved: BalanceMoved;
  deliverer: ReturnType<typeof createWebhookDeliverer>;
  /** The owners' hooks (channels, campaigns) that publish their events. */
  sources: ReturnType<typeof webhookSources>;
  registerRoutes: RegisterRoutes;
};

export function createWebhooksModule(deps: {
  db: DbHandle;
  config: Pick<Config, 'allowPrivateOutbound'>;
  clock: Clock;
  logger: Logger;
  mailer: Mailer;
  /** Tests: a resolver answering as a hostile DNS would, a poster of their own, the loop's bounds. */
  resolve?: ResolveHost;
  post?: PostWebhook;
  delivery?: Partial<DeliveryOptions>;
  random?: () => number;
}): WebhooksModule {
  const { clock, logger } = deps;
  const repo = createWebhooksRepository(deps.db.db);
  const allowPrivate = deps.config.allowPrivateOutbound;
  const post: PostWebhook =
    deps.post ??
    ((url, body, headers) =>
      postOutbound(url, body, { allowPrivate, resolve: deps.resolve, timeoutMs: DELIVERY_TIMEOUT_MS, headers }));
  let wake = () => {};
  const publisher = createWebhookPublisher({ repo, clock, wake: () => wake() });
  const deliverer = createWebhookDeliverer({
    repo,
    clock,
    post,
    logger,
    random: deps.random,
    options: deps.delivery,
    async onDisabled(endpoint) {
      const account = await repo.accountOf(endpoint.userId);
      if (account) await deps.mailer.send(endpointDisabledEmail(account.email, account.language, endpoint.url));
    },
  });
  wake = deliverer.wake;
  const service = createWebhooksService({
    repo,
    publisher,
    clock,
    allowPrivateOutbound: allowPrivate,
    resolve: deps.resolve,
    wake: deliverer.wake,
  });

  const balanceMoved: BalanceMoved = async (change, tx) => {
    if (!(await publisher.listens(change.userId, 'balance.low', tx))) return;
    const crossed = await repo.crossedBelow(change.userId, change.type, change.available, tx);
    if (!crossed) return;
    await publisher.publish(
      change.userId,
      'balance.low',
      {
        creditType: change.type,
        balance: change.available,
        threshold: crossed.threshold,
        at: clock.now().toISOString(),
      },
      tx,
    );
  };

  return {
    service,
    publish: publisher.publish,
    publishMany: publisher.publishMany,
    balanceMoved,
    deliverer,
    sources: webhookSources(publisher.publish, publisher.publishMany, publisher.listens),
    registerRoutes: (app, guard) => registerWebhooksRoutes(app, { webhooks: service, guard }),
  };
}
