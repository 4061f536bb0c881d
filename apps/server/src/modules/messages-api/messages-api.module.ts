/**
 * The developers' sending API as the composition root wires it (issue 23, ADR 020): its routes and
 * Idempotency-Keys here; the sending is the campaign engine's (`campaigns.apiSends`), the messages'
 * pages the channels module's (`messagesList`).
 */
import type { DbHandle } from '../../platform/db/client.ts';
import type { RegisterRoutes } from '../../platform/http/module-routes.ts';
import type { ApiSends } from '../campaigns/index.ts';
import type { MessagesList } from '../channels/index.ts';
import { createMessagesApiRepository } from './messages-api.repository.ts';
import { registerMessagesApiRoutes } from './messages-api.routes.ts';
import { createMessagesApiService, type MessagesApiService } from './messages-api.service.ts';

export type MessagesApiModule = { service: MessagesApiService; registerRoutes: RegisterRoutes };

export function createMessagesApiModule(deps: {
  db: DbHandle;
  apiSends: ApiSends;
  messagesList: MessagesList;
}): MessagesApiModule {
  const service = createMessagesApiService({
    db: deps.db.db,
    repo: createMessagesApiRepository(deps.db.db),
    apiSends: deps.apiSends,
    messagesList: deps.messagesList,
  });
  return { service, registerRoutes: (app, guard) => registerMessagesApiRoutes(app, { api: service, guard }) };
}
