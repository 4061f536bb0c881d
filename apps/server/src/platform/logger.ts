import pino from 'pino';

export type Logger = pino.Logger;

export function createLogger(level: string, pretty = false): Logger {
  return pino({
    level,
    redact: ['req.headers.authorization', 'req.headers.cookie', 'req.body.code', 'req.body.token'],
    ...(pretty ? { transport: { target: 'pino-pretty', options: { colorize: true } } } : {}),
  });
}
