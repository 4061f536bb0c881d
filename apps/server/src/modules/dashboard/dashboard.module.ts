/** The home page as the composition root wires it: balances, credits, the chart, campaigns now and recent. */
import type { Clock } from '../../platform/clock/clock.ts';
import type { DbHandle } from '../../platform/db/client.ts';
import type { RegisterRoutes } from '../../platform/http/module-routes.ts';
import { createDashboardRepository } from './dashboard.repository.ts';
import { registerDashboardRoutes } from './dashboard.routes.ts';
import { createDashboardService, type DashboardService } from './dashboard.service.ts';

type ServiceDeps = Parameters<typeof createDashboardService>[0];

export type DashboardModule = { service: DashboardService; registerRoutes: RegisterRoutes };

export function createDashboardModule(deps: {
  db: DbHandle;
  campaigns: ServiceDeps['campaigns'];
  ledger: ServiceDeps['ledger'];
  messagesPerDay: ServiceDeps['messagesPerDay'];
  clock: Clock;
}): DashboardModule {
  const service = createDashboardService({
    repo: createDashboardRepository(deps.db.db),
    campaigns: deps.campaigns,
    ledger: deps.ledger,
    messagesPerDay: deps.messagesPerDay,
    clock: deps.clock,
  });
  return { service, registerRoutes: (app, guard) => registerDashboardRoutes(app, { dashboard: service, guard }) };
}
