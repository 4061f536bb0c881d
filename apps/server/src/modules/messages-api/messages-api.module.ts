/**
 * The developers' sending API as the composition root wires it (issue 23, ADR 020): its routes and
 * Idempotency-Keys here; the sending is the campaign engine's (`campaigns.apiSends`), the messages'
 * pages the channels module's (`messagesList`).
 */
import type { Clock } from '../../platform/clock/clock.ts';
import type { DbHandle } from '../../platform/db/client.ts';
import type { RegisterRoutes } from '../../platform/http/module-routes.ts';
import type { Jobs } from '../../platform/jobs/jobs.ts';
import type { Logger } from '../../platform/logger.ts';
import type { ApiSends } from '../campaigns/index.ts';
import type { MessagesList } from '../channels/index.ts';
import { defineMessagesApiJobs, IDEMPOTENCY_KEY_RETENTION_MS } from './messages-api.jobs.ts';
import { createMessagesApiRepository } from './messages-api.repository.ts';
import { registerMessagesApiRoutes } from './messages-api.routes.ts';
import { createMessagesApiService, type MessagesApiService } from './messages-api.service.ts';

export type MessagesApiModule = { service: MessagesApiService; registerRoutes: RegisterRoutes };

export function createMessagesApiModule(deps: {
  db: DbHandle;
  apiSends: ApiSends;
  messagesList: MessagesList;
  jobs: Jobs;
  clock: Clock;
  logger: Logger;
}): MessagesApiModule {
  const repo = createMessagesApiRepository(deps.db.db);
  const service = createMessagesApiService({
    db: deps.db.db,
    repo,
    apiSends: deps.apiSends,
    messagesList: deps.messagesList,
  });
  defineMessagesApiJobs(deps.jobs, {
    purgeIdempotencyKeys: () => repo.purgeBefore(new Date(deps.clock.now().getTime() - IDEMPOTENCY_KEY_RETENTION_MS)),
    logger: deps.logger,
  });
  return { service, registerRoutes: (app, guard) => registerMessagesApiRoutes(app, { api: service, guard }) };
}
