import type { ApiScope } from '@ecoa/shared';
import { sql } from 'drizzle-orm';
import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ownedBy, randomId, timestamptz } from '../../platform/db/columns.ts';
import { users } from '../users/index.ts';

/**
 * The developers' API keys (issue 23). Only the SHA-256 of a key is kept (a key is 32 random
 * bytes: nothing to guess, no pepper needed) and its first 12 characters, to tell keys apart in
 * the list. Revoking sets `revoked_at`; a revoked key never works again. `last_used_at` moves at
 * most once a minute.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: randomId(),
    userId: ownedBy(users, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull(),
    scopes: text('scopes').array().$type<ApiScope[]>().notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    lastUsedAt: timestamptz('last_used_at'),
    revokedAt: timestamptz('revoked_at'),
  },
  (t) => [
    uniqueIndex('api_keys_key_hash_key').on(t.keyHash),
    index('api_keys_user_live_idx').on(t.userId, t.createdAt).where(sql`revoked_at is null`),
  ],
);

export type ApiKeyRow = typeof apiKeys.$inferSelect;
