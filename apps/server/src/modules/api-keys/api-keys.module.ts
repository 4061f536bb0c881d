/** API keys as the composition root wires them: the service (whose `authenticate` the guard calls) and routes. */
import type { Clock } from '../../platform/clock/clock.ts';
import type { DbHandle } from '../../platform/db/client.ts';
import type { RegisterRoutes } from '../../platform/http/module-routes.ts';
import type { Logger } from '../../platform/logger.ts';
import { createApiKeysRepository } from './api-keys.repository.ts';
import { registerApiKeysRoutes } from './api-keys.routes.ts';
import { type ApiKeysService, createApiKeysService } from './api-keys.service.ts';

export type ApiKeysModule = { service: ApiKeysService; registerRoutes: RegisterRoutes };

export function createApiKeysModule(deps: { db: DbHandle; clock: Clock; logger: Logger }): ApiKeysModule {
  const service = createApiKeysService({
    repo: createApiKeysRepository(deps.db.db),
    clock: deps.clock,
    logger: deps.logger,
  });
  return { service, registerRoutes: (app, guard) => registerApiKeysRoutes(app, { apiKeys: service, guard }) };
}
