import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ownedBy, randomId, timestamptz } from '../../platform/db/columns.ts';
import { users } from '../users/index.ts';

/**
 * One-time sign-in codes. Only an HMAC of the code is kept. A user has at most one live code
 * (not consumed, not voided): a new request or a resend voids the previous one, and the fifth
 * wrong attempt voids it too. Expiry is `expires_at` (10 minutes after creation).
 */
export const loginCodes = pgTable(
  'login_codes',
  {
    id: randomId(),
    userId: ownedBy(users, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    /** 'request' or 'resend'. */
    reason: text('reason', { enum: ['request', 'resend'] }).notNull(),
    /** Attempts made against this code, right or wrong; the fifth wrong one voids it. */
    attempts: integer('attempts').notNull().default(0),
    requestedIp: text('requested_ip'),
    createdAt: timestamptz('created_at').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    consumedAt: timestamptz('consumed_at'),
    voidedAt: timestamptz('voided_at'),
  },
  (t) => [
    uniqueIndex('login_codes_one_live_per_user').on(t.userId).where(sql`consumed_at is null and voided_at is null`),
    index('login_codes_created_at_idx').on(t.createdAt),
  ],
);

/**
 * Signed-in sessions. Only the SHA-256 of the bearer token is kept. Without remainLogin a
 * session ends 12 hours after sign-in; with it, 30 days after its last use (`expires_at`
 * slides forward, at most once a minute). Logout and deactivation set `revoked_at`.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: randomId(),
    userId: ownedBy(users, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    remainLogin: boolean('remain_login').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: timestamptz('created_at').notNull(),
    lastSeenAt: timestamptz('last_seen_at').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    revokedAt: timestamptz('revoked_at'),
  },
  (t) => [
    uniqueIndex('sessions_token_hash_key').on(t.tokenHash),
    index('sessions_user_id_idx').on(t.userId),
    index('sessions_expires_at_idx').on(t.expiresAt),
  ],
);

/**
 * Abuse-limit events (code requests per e-mail and per IP, failed logins per IP), counted over
 * sliding windows. Kept in the database so limits hold across processes and restarts; rows
 * older than two days are pruned.
 */
export const authAttempts = pgTable(
  'auth_attempts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** e.g. 'code:email', 'code:ip', 'login-fail:ip'. */
    kind: text('kind').notNull(),
    /** The e-mail (lower case) or the IP address. */
    subject: text('subject').notNull(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [
    index('auth_attempts_lookup_idx').on(t.kind, t.subject, t.createdAt),
    index('auth_attempts_created_at_idx').on(t.createdAt),
  ],
);

export type LoginCodeRow = typeof loginCodes.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
