/**
 * The channels as the composition root wires them: test sends and every carrier's receipts and
 * replies (messages, their history, opt-out words), the carriers' webhooks, the jobs. Campaigns
 * write their batches' outcomes through `batches`; the campaign screens and the home page read
 * `tallies`, the metrics `messageCounts`.
 */
import type { Clock } from '../../platform/clock/clock.ts';
import type { Config } from '../../platform/config/config.ts';
import type { DbHandle } from '../../platform/db/client.ts';
import type { RegisterRoutes } from '../../platform/http/module-routes.ts';
import { customerUrlPoster } from '../../platform/http/outbound.ts';
import type { Jobs } from '../../platform/jobs/jobs.ts';
import type { Logger } from '../../platform/logger.ts';
import { defineChannelsJobs } from './channels.jobs.ts';
import { type ChannelsRepository, createChannelsRepository } from './channels.repository.ts';
import { registerChannelsRoutes } from './channels.routes.ts';
import {
  type ChannelEvents,
  type ChannelsService,
  type ChannelsServiceDeps,
  createChannelsService,
} from './channels.service.ts';
import { registerProviderWebhooks } from './channels.webhooks.ts';
import type { StatusListener } from './message-batch-state.ts';
import { createMessageCountsRepository } from './message-counts.repository.ts';
import { createMessageCounts, type MessageCounts } from './message-counts.ts';
import { createMessageTalliesRepository } from './message-tallies.repository.ts';
import { createMessageTallies, type MessageTallies } from './message-tallies.ts';
import { createMessagesListRepository } from './messages-list.repository.ts';
import { createMessagesList, type MessagesList } from './messages-list.ts';
import type { ProviderRegistry } from './providers/registry.ts';
import { createRepliesRepository, type RepliesRepository } from './replies.repository.ts';

export type ChannelsModule = {
  service: ChannelsService;
  /** A campaign batch's outcomes, written set-based, and the in-flight submits its receipts may ride with. */
  batches: Pick<ChannelsRepository, 'recordSubmittedBatch' | 'settleBatch'> & Pick<ChannelsService, 'inflightBatch'>;
  /** Messages counted per campaign, day and second without counting `messages` (the screens' progress, the home page's chart). */
  tallies: MessageTallies;
  /** Messages per channel and status from the kept counts, for the metrics (modules/metrics). */
  messageCounts: MessageCounts;
  /** The stored replies, for the inbox (modules/replies). */
  replies: RepliesRepository;
  /** The user's messages in keyset pages (the sending API's `GET /api/v1/messages`). */
  messagesList: MessagesList;
  registerRoutes: RegisterRoutes;
  /** Each provider's webhooks under `/api/webhooks/<provider>/…`, in a scope of their own (raw body). */
  registerWebhooks: RegisterRoutes;
};

export function createChannelsModule(deps: {
  db: DbHandle;
  config: Config;
  providers: ProviderRegistry;
  ledger: ChannelsServiceDeps['ledger'];
  optOuts: ChannelsServiceDeps['optOuts'];
  audioUrl: ChannelsServiceDeps['audioUrl'];
  jobs: Jobs;
  clock: Clock;
  logger: Logger;
  /** The customer's webhooks: statuses (in the batches' transactions), replies, URA keys. */
  events?: ChannelEvents & { onStatus?: StatusListener };
}): ChannelsModule {
  const { config, providers, jobs, logger } = deps;
  const repo = createChannelsRepository(deps.db.db, { onStatus: deps.events?.onStatus });
  const messageCounts = createMessageCounts(createMessageCountsRepository(deps.db));
  const service = createChannelsService({
    db: deps.db.db,
    repo,
    providers,
    ledger: deps.ledger,
    optOuts: deps.optOuts,
    audioUrl: deps.audioUrl,
    jobs,
    clock: deps.clock,
    logger,
    events: deps.events,
  });
  const tallies = createMessageTallies(createMessageTalliesRepository(deps.db.db));
  for (const provider of providers.all()) provider.onEvent((event) => service.handleEvent(event));
  defineChannelsJobs(jobs, {
    channels: service,
    post: customerUrlPoster(config),
    purgeEarlyReceipts: () => repo.purgeEarlyReceipts(),
    foldMessageCounts: async () => {
      await messageCounts.fold();
      await tallies.foldAll();
    },
    logger,
  });
  return {
    service,
    batches: {
      recordSubmittedBatch: repo.recordSubmittedBatch,
      settleBatch: repo.settleBatch,
      inflightBatch: service.inflightBatch,
    },
    tallies,
    messageCounts,
    replies: createRepliesRepository(deps.db.db),
    messagesList: createMessagesList(createMessagesListRepository(deps.db.db)),
    registerRoutes: (app, guard) => registerChannelsRoutes(app, { channels: service, guard }),
    registerWebhooks: (app) =>
      registerProviderWebhooks(app, { providers: providers.all(), publicUrl: config.publicUrl }),
  };
}
