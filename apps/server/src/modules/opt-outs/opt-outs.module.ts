/** Opt-outs as the composition root wires them: account-wide, imported from uploads like lists. */
import type { DbHandle } from '../../platform/db/client.ts';
import type { RegisterRoutes } from '../../platform/http/module-routes.ts';
import type { UploadStorage } from '../../platform/http/upload-storage.ts';
import { createOptOutsRepository } from './opt-outs.repository.ts';
import { registerOptOutsRoutes } from './opt-outs.routes.ts';
import { createOptOutsService, type OptOutsService } from './opt-outs.service.ts';

export type OptOutsModule = { service: OptOutsService; registerRoutes: RegisterRoutes };

export function createOptOutsModule(deps: { db: DbHandle; storage: UploadStorage }): OptOutsModule {
  const { storage } = deps;
  const service = createOptOutsService({ repo: createOptOutsRepository(deps.db), storage });
  return { service, registerRoutes: (app, guard) => registerOptOutsRoutes(app, { optOuts: service, storage, guard }) };
}
