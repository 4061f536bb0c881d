/**
 * What anyone may ask without signing in, as the composition root wires it: `GET /api/health`
 * (liveness and readiness: the app started, the database answers) and `GET /api/v1/public-config`
 * (the settings the web app reads before sign-in). One call from `modules/index.ts`.
 */
import type { Config } from '../../platform/config/config.ts';
import type { DbHandle } from '../../platform/db/client.ts';
import type { RegisterRoutes } from '../../platform/http/module-routes.ts';
import { createHealthRepository } from './health.repository.ts';
import { registerHealthRoutes } from './health.routes.ts';
import { registerPublicConfigRoutes } from './public-config.routes.ts';

export type HealthModuleDeps = {
  db: DbHandle;
  config: Pick<Config, 'supportWhatsapp' | 'gtmContainerId'>;
};

export type HealthModule = { registerRoutes: RegisterRoutes };

export function createHealthModule(deps: HealthModuleDeps): HealthModule {
  const { db, config } = deps;
  const repository = createHealthRepository(db);
  return {
    registerRoutes(app) {
      // Ready once the app is (after migrations, the job queue and every module's routes).
      let ready = false;
      app.addHook('onReady', async () => {
        ready = true;
      });
      registerHealthRoutes(app, {
        isReady: () => ready,
        pingDb: repository.ping,
      });
      registerPublicConfigRoutes(app, {
        supportWhatsapp: config.supportWhatsapp,
        ...(config.gtmContainerId ? { gtmContainerId: config.gtmContainerId } : {}),
      });
    },
  };
}
