import { type Config, ConfigError, loadConfig } from './config/config.ts';
import { createLogger, type Logger, prettyLogsAvailable, wantsPrettyLogs } from './logger.ts';

/** Loads the config or exits with every bad variable listed (before anything else starts). */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}

/** LOG_FORMAT decides; without pino-pretty installed the logs stay JSON (said once when it was asked for). */
export function createProcessLogger(config: Config): Logger {
  const pretty = wantsPrettyLogs(config.logFormat, process.stdout.isTTY === true);
  const available = pretty && prettyLogsAvailable();
  const logger = createLogger(config.logLevel, available);
  if (pretty && !available && config.logFormat === 'pretty') {
    logger.warn('LOG_FORMAT=pretty but pino-pretty is not installed (a production install): logging JSON');
  }
  return logger;
}

/**
 * SIGTERM/SIGINT: close once, gracefully; a second signal or a hung close forces exit.
 * Nothing is lost on a forced exit either: unfinished jobs return to the queue when their
 * lease expires, and every money change is a committed transaction or nothing.
 */
export function onShutdownSignal(logger: Logger, close: () => Promise<void>, forceAfterMs = 45_000): void {
  let shuttingDown = false;
  const handler = (signal: NodeJS.Signals) => {
    if (shuttingDown) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    shuttingDown = true;
    logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error('shutdown timed out: exiting');
      process.exit(1);
    }, forceAfterMs);
    timer.unref();
    close().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (err) => {
        logger.error({ err }, 'error while shutting down');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
}
