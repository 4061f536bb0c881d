import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** A session token: 256 random bits, base64url (43 characters). Only its hash is stored. */
export function newSessionToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

/** SHA-256 of a session token, hex. A 256-bit random token needs no pepper: it cannot be guessed. */
export function hashSessionToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

/** An API key: `ecoa_` + 256 random bits, base64url (48 characters). Only its hash is stored. */
export function newApiKey(): string {
  return `ecoa_${crypto.randomBytes(32).toString('base64url')}`;
}

/** SHA-256 of an API key, hex: like a session token, 256 random bits need no pepper. */
export function hashApiKey(key: string): string {
  return crypto.createHash('sha256').update(key).digest('hex');
}

/** A login code: `length` decimal digits from the cryptographically secure generator. */
export function newLoginCode(length = 6): string {
  return String(crypto.randomInt(0, 10 ** length)).padStart(length, '0');
}

/**
 * HMAC-SHA256 of a login code, keyed by the server secret (the pepper) and bound to its user,
 * so a copy of the database alone cannot be brute-forced back to a usable code.
 */
export function hashLoginCode(secret: string, userId: string, code: string): string {
  return crypto.createHmac('sha256', secret).update(`${userId}:${code}`).digest('hex');
}

/** Constant-time comparison of two hex digests. */
export function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && crypto.timingSafeEqual(x, y);
}

/**
 * The login-code pepper: `AUTH_SECRET` when set (required when several hosts share one
 * PostgreSQL without sharing DATA_DIR); otherwise a random secret created once in
 * `DATA_DIR/auth-secret` (mode 0600) and reused across restarts.
 */
export function loadAuthSecret(configured: string | undefined, dataDir: string): string {
  if (configured) return configured;
  const file = path.join(dataDir, 'auth-secret');
  try {
    const existing = fs.readFileSync(file, 'utf8').trim();
    if (existing.length >= 32) return existing;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const secret = crypto.randomBytes(32).toString('hex');
  try {
    // 'wx': if another process created it meanwhile, keep theirs.
    fs.writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return fs.readFileSync(file, 'utf8').trim();
    throw err;
  }
}
