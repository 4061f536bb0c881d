/**
 * Enrichment as the composition root wires it: CNPJs looked up in the CNPJ base, paid per hit
 * (the ledger), allowed by the users module's permission; results become contact lists.
 */
import type { Clock } from '../../platform/clock/clock.ts';
import type { DbHandle } from '../../platform/db/client.ts';
import type { RegisterRoutes } from '../../platform/http/module-routes.ts';
import type { UploadStorage } from '../../platform/http/upload-storage.ts';
import type { Jobs } from '../../platform/jobs/jobs.ts';
import { defineEnrichmentJobs } from './enrichment.jobs.ts';
import { createEnrichmentRepository } from './enrichment.repository.ts';
import { registerEnrichmentRoutes } from './enrichment.routes.ts';
import { createEnrichmentService, type EnrichmentService, type EnrichmentServiceDeps } from './enrichment.service.ts';

export type EnrichmentModule = { service: EnrichmentService; registerRoutes: RegisterRoutes };

export function createEnrichmentModule(deps: {
  db: DbHandle;
  jobs: Jobs;
  clock: Clock;
  storage: UploadStorage;
  ledger: EnrichmentServiceDeps['ledger'];
  enrichmentPermissions: EnrichmentServiceDeps['enrichmentPermissions'];
  createList: EnrichmentServiceDeps['createList'];
}): EnrichmentModule {
  const { storage } = deps;
  const service = createEnrichmentService({
    db: deps.db.db,
    repo: createEnrichmentRepository(deps.db.db),
    ledger: deps.ledger,
    jobs: deps.jobs,
    enrichmentPermissions: deps.enrichmentPermissions,
    createList: deps.createList,
    clock: deps.clock,
  });
  defineEnrichmentJobs(deps.jobs, service);
  return {
    service,
    registerRoutes: (app, guard) => registerEnrichmentRoutes(app, { enrichment: service, storage, guard }),
  };
}
