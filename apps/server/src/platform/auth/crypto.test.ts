import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/server.test-support.ts';
import { hashLoginCode, loadAuthSecret, newLoginCode, newSessionToken, sameDigest } from './crypto.ts';

describe('auth crypto', () => {
  it('makes 6-digit codes, leading zeros included, spread over the whole range', () => {
    const codes = Array.from({ length: 2000 }, () => newLoginCode(6));
    for (const code of codes) expect(code).toMatch(/^\d{6}$/);
    expect(new Set(codes).size).toBeGreaterThan(1990);
    expect(codes.some((c) => c.startsWith('0'))).toBe(true);
  });

  it('makes 256-bit base64url session tokens', () => {
    const token = newSessionToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(newSessionToken()).not.toBe(token);
  });

  it('binds a code hash to its secret and its user', () => {
    const h = hashLoginCode('s'.repeat(64), 'user-1', '123456');
    expect(sameDigest(h, hashLoginCode('s'.repeat(64), 'user-1', '123456'))).toBe(true);
    expect(sameDigest(h, hashLoginCode('t'.repeat(64), 'user-1', '123456'))).toBe(false);
    expect(sameDigest(h, hashLoginCode('s'.repeat(64), 'user-2', '123456'))).toBe(false);
    expect(sameDigest(h, '')).toBe(false);
  });

  it('keeps one secret per DATA_DIR (mode 0600) unless AUTH_SECRET is set', () => {
    const dir = tempDir();
    const first = loadAuthSecret(undefined, dir);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(loadAuthSecret(undefined, dir)).toBe(first);
    expect(fs.statSync(path.join(dir, 'auth-secret')).mode & 0o777).toBe(0o600);
    expect(loadAuthSecret('x'.repeat(40), dir)).toBe('x'.repeat(40));
  });
});
