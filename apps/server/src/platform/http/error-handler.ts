import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isInvalidTextError } from '../db/errors.ts';
import { AppError, validationFailed } from '../errors/app-error.ts';

/** An error's answer: `{message, code, details?}` with its status (plus what the caller adds). */
function send(reply: FastifyReply, error: AppError, extra: Record<string, unknown> = {}) {
  return reply
    .status(error.status)
    .send({ message: error.message, code: error.code, ...(error.details ? { details: error.details } : {}), ...extra });
}

/**
 * The one error handler. Every error leaves as `{message, code}` from the catalogue (plus
 * `details`, and `issues` for validation); a 5xx never shows internals, only the request id to
 * quote to support. Fastify's own client errors keep its code, status and words.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError | Error, request, reply) => {
    if (error instanceof AppError) {
      if (error.status >= 500) request.log.error({ err: error }, error.message);
      const retryAfter = (error.details as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
      if (error.status === 429 && typeof retryAfter === 'number') reply.header('retry-after', String(retryAfter));
      return send(reply, error);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((v) => ({
        path: (v.instancePath || '').replace(/^\//, '').replaceAll('/', '.'),
        message: v.message ?? 'Valor inválido',
      }));
      return send(reply, validationFailed(issues[0]?.message), { issues });
    }
    // The backstop of the input guard and the sanitizer: text the database refuses is the
    // client's input, never a 500.
    if (isInvalidTextError(error)) {
      request.log.warn({ err: error }, 'text refused by the database');
      return send(reply, new AppError('TEXT_INVALID_CHARACTERS'));
    }
    const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'unhandled error');
      return send(reply, new AppError('INTERNAL'), { requestId: request.id });
    }
    // Fastify's own 4xx (malformed JSON, payload too large, unsupported media type, rate limit…)
    const code = 'code' in error && typeof error.code === 'string' ? error.code : 'BAD_REQUEST';
    return reply.status(status).send({ message: error.message, code });
  });

  app.setNotFoundHandler((request, reply) =>
    send(reply, new AppError('NOT_FOUND', undefined, { route: `${request.method} ${request.url.split('?')[0]}` })),
  );
}
