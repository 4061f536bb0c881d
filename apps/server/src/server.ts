import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { type SimulatorOverrides, type StartedProviders, startProviders } from './modules/channels/providers/index.ts';
import { type ComposedModules, composeModules } from './modules/index.ts';
import type { Clock } from './platform/clock/clock.ts';
import type { Config } from './platform/config/config.ts';
import { type DbHandle, openDb } from './platform/db/client.ts';
import { runMigrations } from './platform/db/migrate.ts';
import { createJobs, type Jobs } from './platform/jobs/jobs.ts';
import type { Logger } from './platform/logger.ts';
import { createProcessShare } from './platform/pacing/process-share.ts';

export type RunningServer = {
  app: FastifyInstance;
  config: Config;
  db: DbHandle;
  jobs: Jobs;
  /** The services the composition root built (tests reach the clock, users, auth through it). */
  modules: ComposedModules;
  /** The channels' carriers and the simulators running in this process (tests read their counters). */
  providers: StartedProviders;
  /** Stops accepting requests, lets running requests and jobs finish, closes the database. */
  close(): Promise<void>;
};

export type StartOptions = {
  config: Config;
  logger: Logger;
  /** Listen on config.host:port (false in tests, which use `app.inject`). */
  listen?: boolean;
  /** Work jobs in this process (the default; the blueprint's in-process workers). */
  work?: boolean;
  webRoot?: string;
  /** Use an already open database (tests share one per file). */
  db?: DbHandle;
  /** "Now" for every service (tests pass a manual clock). */
  clock?: Clock;
  /** Tunes the in-process carrier simulators (outcomes, latency). */
  simulators?: SimulatorOverrides;
};

export function pgliteDir(config: Config): string {
  return path.join(config.dataDir, 'pglite');
}

export async function startServer(options: StartOptions): Promise<RunningServer> {
  const { config, logger } = options;
  const ownsDb = !options.db;
  const db =
    options.db ??
    (await openDb({
      databaseUrl: config.databaseUrl,
      pgliteDir: pgliteDir(config),
      onIdleConnectionError: (err) => logger.warn({ err }, 'an idle database connection broke: it is replaced'),
    }));
  let providers: StartedProviders | undefined;
  try {
    await runMigrations(db);
    const jobs = createJobs(db, logger);
    // One share of the carriers' rates for the providers and the dispatcher (the supervisor keeps it).
    const share = createProcessShare((options.work ?? true) ? 'uncounted' : 'alone');
    providers = await startProviders({ config, logger, simulators: options.simulators, share });
    const modules = composeModules({
      config,
      db,
      jobs,
      logger,
      clock: options.clock,
      providers: providers.registry,
      share,
      carriers: providers.carriers,
    });
    await jobs.start({ work: options.work ?? true });

    const app = await buildApp({ config, db, jobs, logger, webRoot: options.webRoot });
    await modules.registerRoutes(app);
    await app.ready();
    if (options.listen ?? true) await app.listen({ port: config.port, host: config.host });
    if (options.work ?? true) {
      await modules.supervisor.start();
      modules.webhooks.deliverer.start();
    }

    let closing: Promise<void> | undefined;
    return {
      app,
      config,
      db,
      jobs,
      modules,
      providers,
      close: () => {
        closing ??= (async () => {
          await app.close();
          await modules.dispatcher.stop();
          await jobs.stop();
          await modules.supervisor.stop();
          await modules.webhooks.deliverer.stop();
          await providers!.close();
          await modules.channels.closeReceipts();
          // The hop's clicks still waiting are written before the database closes.
          await modules.linkClicks.close();
          if (ownsDb) await db.close();
        })();
        return closing;
      },
    };
  } catch (err) {
    await providers?.close().catch(() => {});
    if (ownsDb) await db.close().catch(() => {});
    throw err;
  }
}
