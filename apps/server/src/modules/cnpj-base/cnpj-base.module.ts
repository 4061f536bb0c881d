/**
 * The CNPJ base as the composition root wires it: repository, importer, service, job queue and
 * routes built from explicit dependencies, so `modules/index.ts` needs one call.
 */
import type { Clock } from '../../platform/clock/clock.ts';
import type { DbHandle } from '../../platform/db/client.ts';
import type { RegisterRoutes } from '../../platform/http/module-routes.ts';
import type { Jobs } from '../../platform/jobs/jobs.ts';
import type { Logger } from '../../platform/logger.ts';
import { createCnpjImporter } from './cnpj-base.importer.ts';
import { defineCnpjBaseJobs } from './cnpj-base.jobs.ts';
import { createCnpjBaseRepository } from './cnpj-base.repository.ts';
import { registerCnpjBaseRoutes } from './cnpj-base.routes.ts';
import { type CnpjBaseService, createCnpjBaseService } from './cnpj-base.service.ts';

export type CnpjBaseModule = {
  service: CnpjBaseService;
  registerRoutes: RegisterRoutes;
};

export function createCnpjBaseModule(deps: { db: DbHandle; jobs: Jobs; clock: Clock; logger: Logger }): CnpjBaseModule {
  const repo = createCnpjBaseRepository(deps.db);
  const importer = createCnpjImporter({ handle: deps.db, repo, clock: deps.clock });
  const service = createCnpjBaseService({ repo, importer, jobs: deps.jobs, clock: deps.clock, logger: deps.logger });
  defineCnpjBaseJobs(deps.jobs, service);
  return { service, registerRoutes: (app, guard) => registerCnpjBaseRoutes(app, { service, guard }) };
}
