import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.ts';

/** The optional `Idempotency-Key` header: a retry with the same key changes nothing. */
export function idempotencyKey(request: FastifyRequest): string | undefined {
  const raw = request.headers['idempotency-key'];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (!value) return undefined;
  if (value.length > 200) throw new AppError('VALIDATION_FAILED', { messageKey: 'idempotencyKeyTooLong' });
  return value;
}

export const idempotencyHeaderDoc = {
  description: 'Optional `Idempotency-Key` header: a retry with the same key answers the first result.',
};
