/**
 * `npm run worker`: a worker-only process (no HTTP) for PostgreSQL deployments; run as many
 * as needed. PGlite is a single-process database, so there the server works the jobs itself.
 */
import { startProviders } from './modules/channels/providers/index.ts';
import { composeModules } from './modules/index.ts';
import { installCrashGuard } from './platform/crash-guard.ts';
import { openDb } from './platform/db/client.ts';
import { runMigrations } from './platform/db/migrate.ts';
import { createJobs } from './platform/jobs/jobs.ts';
import { createProcessShare } from './platform/pacing/process-share.ts';
import { createProcessLogger, loadConfigOrExit, onShutdownSignal } from './platform/process.ts';

const config = loadConfigOrExit();
const logger = createProcessLogger(config).child({ role: 'worker' });
installCrashGuard(logger);

if (!config.databaseUrl) {
  logger.fatal('npm run worker needs DATABASE_URL (a PostgreSQL server): on PGlite, `npm start` works the jobs itself');
  process.exit(1);
}

const db = await openDb({
  databaseUrl: config.databaseUrl,
  onIdleConnectionError: (err) => logger.warn({ err }, 'an idle database connection broke: it is replaced'),
});
await runMigrations(db);
const jobs = createJobs(db, logger);
// One share of the carriers' rates for the providers and the dispatcher (the supervisor keeps it).
const share = createProcessShare('uncounted');
const providers = await startProviders({ config, logger, share });
const modules = composeModules({
  config,
  db,
  jobs,
  logger,
  providers: providers.registry,
  share,
  carriers: providers.carriers,
});
await jobs.start({ work: true });
await modules.supervisor.start();
modules.webhooks.deliverer.start();
logger.info('worker ready');
onShutdownSignal(logger, async () => {
  await modules.dispatcher.stop();
  await jobs.stop();
  await modules.supervisor.stop();
  await modules.webhooks.deliverer.stop();
  await providers.close();
  await modules.channels.closeReceipts();
  await db.close();
});
