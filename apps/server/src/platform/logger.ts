import { createRequire } from 'node:module';
import pino from 'pino';

export type Logger = pino.Logger;

export type LogFormat = 'pretty' | 'json' | 'auto';

/**
 * URLs that carry a secret: a signed audio link (`/api/v1/audios/play/<token>`, which plays the
 * audio to whoever holds it) and the verify token Meta sends in the WhatsApp webhook handshake.
 */
const SECRET_PATH = /^(\/api\/v1\/audios\/play\/)[^/?#]+/;
const SECRET_QUERY = /([?&]hub\.verify_token=)[^&#]*/gi;

/** `url` as it may be logged: its secret parts replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_PATH, '$1[redacted]').replace(SECRET_QUERY, '$1[redacted]');
}

/** A request as it is logged (Fastify's own fields), its URL without secrets. */
type LoggedRequest = { method: string; url: string; host?: string; ip?: string; socket?: { remotePort?: number } };

/** `destination`: where the JSON lines go (stdout unless given; a test reads them back). */
export function createLogger(level: string, pretty = false, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    redact: ['req.headers.authorization', 'req.headers.cookie', 'req.body.code', 'req.body.token'],
    // Fastify gives a logger's own serializers precedence over its defaults (logger-factory.js).
    serializers: {
      req: (req: LoggedRequest) => ({
        method: req.method,
        url: redactUrl(req.url),
        host: req.host,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      }),
    },
    ...(pretty ? { transport: { target: 'pino-pretty', options: { colorize: true } } } : {}),
  };
  return destination ? pino(options, destination) : pino(options);
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
