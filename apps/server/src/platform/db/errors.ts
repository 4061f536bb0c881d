/**
 * What a database error means, whichever driver raised it (node-postgres, PGlite) and however
 * it was wrapped (drizzle's DrizzleQueryError keeps the driver's error as `cause`).
 */

type MaybeDbError = { code?: unknown; message?: unknown; cause?: unknown };

/** The errors along `err`'s cause chain (bounded: a cause may point back at itself). */
function* causes(err: unknown): Generator<MaybeDbError> {
  let current: unknown = err;
  for (let depth = 0; depth < 8 && current !== null && typeof current === 'object'; depth++) {
    yield current as MaybeDbError;
    current = (current as MaybeDbError).cause;
  }
}

/** The SQLSTATE (`23505`…) of a database error, if it is one. */
export function sqlStateOf(err: unknown): string | undefined {
  for (const e of causes(err)) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return undefined;
}

/** SQLSTATEs after which the same statement may well succeed a moment later. */
const TRANSIENT_STATES = new Set([
  '40001', // serialization_failure
  '40P01', // deadlock_detected
  '55P03', // lock_not_available
  '57P01', // admin_shutdown (the server is restarting)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (still starting)
  '53000', // insufficient_resources
  '53100', // disk_full
  '53200', // out_of_memory
  '53300', // too_many_connections
]);
const TRANSIENT_NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);
const TRANSIENT_MESSAGES =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error/i;

/**
 * True when `err` is the database being briefly unavailable or busy (a lost connection, a
 * restart, a deadlock, too many clients) rather than something wrong with the work itself: a job
 * that hit one is retried instead of failing what it worked on.
 */
export function isTransientDbError(err: unknown): boolean {
  for (const e of causes(err)) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (TRANSIENT_STATES.has(code) || code.startsWith('08') || TRANSIENT_NETWORK_CODES.has(code)) return true;
    if (typeof e.message === 'string' && TRANSIENT_MESSAGES.test(e.message)) return true;
  }
  return false;
}

/** PostgreSQL refused text it cannot store (a NUL in text or jsonb, a bad Unicode escape in jsonb). */
export function isInvalidTextError(err: unknown): boolean {
  const state = sqlStateOf(err);
  return state === '22P05' || state === '22021';
}
