import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors/app-error.ts';
import { idempotencyKey } from './idempotency-key.ts';

const withHeader = (value: string | string[] | undefined) =>
  ({ headers: value === undefined ? {} : { 'idempotency-key': value } }) as unknown as FastifyRequest;

describe('the Idempotency-Key header', () => {
  it('is optional: absent or blank means none', () => {
    expect(idempotencyKey(withHeader(undefined))).toBeUndefined();
    expect(idempotencyKey(withHeader(''))).toBeUndefined();
    expect(idempotencyKey(withHeader('   '))).toBeUndefined();
  });

  it('is the trimmed value, the first one when repeated', () => {
    expect(idempotencyKey(withHeader('  pedido-42 '))).toBe('pedido-42');
    expect(idempotencyKey(withHeader(['a-1', 'b-2']))).toBe('a-1');
  });

  it('takes up to 200 characters and refuses longer with a clear 400', () => {
    expect(idempotencyKey(withHeader('k'.repeat(200)))).toBe('k'.repeat(200));
    let error: unknown;
    try {
      idempotencyKey(withHeader('k'.repeat(201)));
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    expect((error as Error).message).toBe('Idempotency-Key: no máximo 200 caracteres.');
  });
});
