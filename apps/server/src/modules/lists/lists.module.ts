/**
 * Contact lists as the composition root wires them: uploads wait in DATA_DIR/uploads for their
 * import job; a list made directly from contacts is enrichment's way in.
 */
import type { Clock } from '../../platform/clock/clock.ts';
import type { DbHandle } from '../../platform/db/client.ts';
import type { RegisterRoutes } from '../../platform/http/module-routes.ts';
import type { UploadStorage } from '../../platform/http/upload-storage.ts';
import type { Jobs } from '../../platform/jobs/jobs.ts';
import type { Logger } from '../../platform/logger.ts';
import { createDirectListsRepository } from './lists.direct.repository.ts';
import { defineListsJobs } from './lists.jobs.ts';
import { createListsRepository } from './lists.repository.ts';
import { registerListsRoutes } from './lists.routes.ts';
import { createListsService, type ListsService } from './lists.service.ts';

export type ListsModule = {
  service: ListsService;
  /** A list made from contacts at once, without an upload (enrichment's results). */
  createFromContacts: ReturnType<typeof createDirectListsRepository>['createFromContacts'];
  registerRoutes: RegisterRoutes;
};

export function createListsModule(deps: {
  db: DbHandle;
  jobs: Jobs;
  clock: Clock;
  storage: UploadStorage;
  logger: Logger;
}): ListsModule {
  const { storage } = deps;
  const service = createListsService({
    repo: createListsRepository(deps.db),
    jobs: deps.jobs,
    clock: deps.clock,
    storage,
    logger: deps.logger,
  });
  defineListsJobs(deps.jobs, service);
  return {
    service,
    createFromContacts: createDirectListsRepository(deps.db.db).createFromContacts,
    registerRoutes: (app, guard) => registerListsRoutes(app, { lists: service, storage, guard }),
  };
}
