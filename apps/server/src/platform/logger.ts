import { createRequire } from 'node:module';
import pino from 'pino';

export type Logger = pino.Logger;

export type LogFormat = 'pretty' | 'json' | 'auto';

export function createLogger(level: string, pretty = false): Logger {
  return pino({
    level,
    redact: ['req.headers.authorization', 'req.headers.cookie', 'req.body.code', 'req.body.token'],
    ...(pretty ? { transport: { target: 'pino-pretty', options: { colorize: true } } } : {}),
  });
}

/**
 * Whether LOG_FORMAT asks for human-readable lines: `pretty` always, `auto` when stdout is a
 * terminal (someone is reading), `json` never; JSON lines are what log collectors parse.
 */
export function wantsPrettyLogs(format: LogFormat, stdoutIsTty: boolean): boolean {
  return format === 'pretty' || (format === 'auto' && stdoutIsTty);
}

/** pino-pretty is a development dependency: a production install (`--omit=dev`) may lack it. */
export function prettyLogsAvailable(): boolean {
  try {
    createRequire(import.meta.url).resolve('pino-pretty');
    return true;
  } catch {
    return false;
  }
}
