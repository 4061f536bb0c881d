import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { ownedBy, timestamptz } from '../../platform/db/columns.ts';
import { users } from '../users/index.ts';

/**
 * The sending API's `Idempotency-Key`s: the first request with a key stores what it answered, in
 * the same transaction as the messages it queued, so a retry (or a twin arriving at the same
 * moment, which waits on this row's key) gets that answer, and another body with the key a 409.
 */
export const apiIdempotencyKeys = pgTable(
  'api_idempotency_keys',
  {
    userId: ownedBy(users),
    key: text('key').notNull(),
    /** The route and a SHA-256 of its JSON body: the same key with another body is refused. */
    requestHash: text('request_hash').notNull(),
    status: integer('status').notNull(),
    response: jsonb('response').notNull(),
    createdAt: timestamptz('created_at').notNull().default(sql`now()`),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index('api_idempotency_keys_created_idx').on(t.createdAt)],
);
