/**
 * Operations metrics as the composition root wires them (issue 14): with METRICS_TOKEN set, every
 * response is counted per route and `GET /metrics` answers Prometheus; without it nothing is
 * measured and the route is a 404. One call from `modules/index.ts`.
 */
import type { FastifyInstance } from 'fastify';
import type { DbHandle } from '../../platform/db/client.ts';
import type { Logger } from '../../platform/logger.ts';
import { createHttpMetrics, recordHttpMetrics } from '../../platform/metrics/http-metrics.ts';
import { createProcessMetrics } from '../../platform/metrics/process-metrics.ts';
import type { MessageCounts, ProviderRegistry } from '../channels/index.ts';
import { createMetricsRepository } from './metrics.repository.ts';
import { METRICS_PATH, registerMetricsRoutes } from './metrics.routes.ts';
import { createMetricsService } from './metrics.service.ts';

export type MetricsModuleDeps = {
  token: string | undefined;
  db: DbHandle;
  providers: ProviderRegistry;
  /** The channels module's message counts (`ChannelsModule.messageCounts`). */
  messageCounts: MessageCounts;
  logger: Logger;
};

export type MetricsModule = { registerRoutes(app: FastifyInstance): void };

/**
 * Its routes are registered first, so the hook exists before any module's plugin loads (the
 * test checks that earlier routes, `/api/health` and `/api/docs/json`, are counted as well).
 */
export function createMetricsModule(deps: MetricsModuleDeps): MetricsModule {
  return { registerRoutes: (app) => registerMetrics(app, deps) };
}

function registerMetrics(app: FastifyInstance, deps: MetricsModuleDeps): void {
  if (!deps.token) {
    registerMetricsRoutes(app, { token: undefined, service: undefined });
    return;
  }
  const http = createHttpMetrics();
  const processMetrics = createProcessMetrics();
  recordHttpMetrics(app, http, METRICS_PATH);
  app.addHook('onClose', async () => processMetrics.stop());
  const service = createMetricsService({
    http,
    process: processMetrics,
    repo: createMetricsRepository(deps.db, deps.messageCounts),
    providers: () => deps.providers.all(),
    logger: deps.logger,
  });
  registerMetricsRoutes(app, { token: deps.token, service });
}
