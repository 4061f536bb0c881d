/** `npm start`: the HTTP server with in-process job workers, on PGlite unless DATABASE_URL is set. */
import { installCrashGuard } from './platform/crash-guard.ts';
import { createProcessLogger, loadConfigOrExit, onShutdownSignal } from './platform/process.ts';
import { startServer } from './server.ts';

const config = loadConfigOrExit();
const logger = createProcessLogger(config);
installCrashGuard(logger);
const startedAt = performance.now();

try {
  const server = await startServer({ config, logger });
  logger.info(
    {
      url: `http://${config.host}:${config.port}`,
      database: server.db.kind,
      startupMs: Math.round(performance.now() - startedAt),
    },
    'Ecoa is ready',
  );
  onShutdownSignal(logger, server.close);
} catch (err) {
  logger.fatal({ err }, 'failed to start');
  process.exit(1);
}
