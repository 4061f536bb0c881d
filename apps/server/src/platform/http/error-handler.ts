import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isInvalidTextError } from '../db/errors.ts';
import { AppError } from '../errors/app-error.ts';
import { TEXT_INVALID_CHARACTERS_MESSAGE } from './input-guard.ts';

/**
 * The one error handler. Every error leaves as `{message, code}` (plus `issues` for
 * validation); a 5xx never shows internals, only the request id to quote to support.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError | Error, request, reply) => {
    if (error instanceof AppError) {
      if (error.status >= 500) request.log.error({ err: error }, error.message);
      const retryAfter = (error.details as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
      if (error.status === 429 && typeof retryAfter === 'number') reply.header('retry-after', String(retryAfter));
      return reply
        .status(error.status)
        .send({ message: error.message, code: error.code, ...(error.details ? { details: error.details } : {}) });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((v) => ({
        path: (v.instancePath || '').replace(/^\//, '').replaceAll('/', '.'),
        message: v.message ?? 'Valor inválido',
      }));
      return reply
        .status(400)
        .send({ message: issues[0]?.message ?? 'Requisição inválida.', code: 'VALIDATION_FAILED', issues });
    }
    // The backstop of the input guard and the sanitizer: text the database refuses is the
    // client's input, never a 500.
    if (isInvalidTextError(error)) {
      request.log.warn({ err: error }, 'text refused by the database');
      return reply.status(400).send({ message: TEXT_INVALID_CHARACTERS_MESSAGE, code: 'TEXT_INVALID_CHARACTERS' });
    }
    const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'unhandled error');
      return reply
        .status(500)
        .send({ message: 'Algo deu errado. Tente novamente em instantes.', code: 'INTERNAL', requestId: request.id });
    }
    // Fastify's own 4xx (malformed JSON, payload too large, unsupported media type, rate limit…)
    const code = 'code' in error && typeof error.code === 'string' ? error.code : 'BAD_REQUEST';
    return reply.status(status).send({ message: error.message, code });
  });

  app.setNotFoundHandler((request, reply) => {
    reply
      .status(404)
      .send({ message: `Rota não encontrada: ${request.method} ${request.url.split('?')[0]}`, code: 'NOT_FOUND' });
  });
}
