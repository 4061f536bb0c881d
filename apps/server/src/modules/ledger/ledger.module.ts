/** The ledger as the composition root wires it: repository, service and routes. */
import type { Clock } from '../../platform/clock/clock.ts';
import type { DbHandle } from '../../platform/db/client.ts';
import type { RegisterRoutes } from '../../platform/http/module-routes.ts';
import { createLedgerRepository } from './ledger.repository.ts';
import { registerLedgerRoutes } from './ledger.routes.ts';
import { createLedgerService, type LedgerService, type LedgerServiceDeps } from './ledger.service.ts';

export type LedgerModule = { service: LedgerService; registerRoutes: RegisterRoutes };

export function createLedgerModule(deps: {
  db: DbHandle;
  clock: Clock;
  balanceMoved?: LedgerServiceDeps['balanceMoved'];
}): LedgerModule {
  const service = createLedgerService({
    repo: createLedgerRepository(deps.db.db),
    clock: deps.clock,
    balanceMoved: deps.balanceMoved,
  });
  return { service, registerRoutes: (app, guard) => registerLedgerRoutes(app, { ledger: service, guard }) };
}
