import { and, desc, eq, isNull, lte, or, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../platform/db/client.ts';
import { preparedStatement } from '../../platform/db/prepared.ts';
import { users } from '../users/index.ts';
import { type ApiKeyRow, apiKeys } from './api-keys.schema.ts';

/** A live key found by its hash, with what the guard needs of its user. */
export type LiveApiKey = Pick<ApiKeyRow, 'id' | 'scopes' | 'lastUsedAt'> & {
  user: {
    id: string;
    email: string;
    name: string;
    accessLevel: 'USER' | 'ADMINISTRATOR';
    language: 'pt' | 'en' | 'cn';
    apiRatePerSecond: number | null;
  };
};

// Every request made with a key runs this one: prepared (see platform/db/prepared.ts). A revoked
// key or one of a deactivated account is not found.
const liveKeyByHash = preparedStatement('api_keys_live_by_hash', (db, name) =>
  db
    .select({
      id: apiKeys.id,
      scopes: apiKeys.scopes,
      lastUsedAt: apiKeys.lastUsedAt,
      user: {
        id: users.id,
        email: users.email,
        name: users.name,
        accessLevel: users.accessLevel,
        language: users.language,
        apiRatePerSecond: users.apiRatePerSecond,
      },
    })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(and(eq(apiKeys.keyHash, sql.placeholder('keyHash')), isNull(apiKeys.revokedAt), eq(users.active, true)))
    .limit(1)
    .prepare(name),
);

/** SQL of the api-keys module. */
export function createApiKeysRepository(db: Database) {
  return {
    async insert(
      row: Pick<ApiKeyRow, 'userId' | 'name' | 'prefix' | 'keyHash' | 'scopes' | 'createdAt'>,
      tx: DbOrTx = db,
    ): Promise<ApiKeyRow> {
      const [created] = await tx.insert(apiKeys).values(row).returning();
      return created!;
    },

    /** The user's live keys, newest first. */
    listLive(userId: string, tx: DbOrTx = db): Promise<ApiKeyRow[]> {
      return tx
        .select()
        .from(apiKeys)
        .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
        .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
    },

    async findLive(keyHash: string, tx: DbOrTx = db): Promise<LiveApiKey | undefined> {
      const [row] = await liveKeyByHash(tx).execute({ keyHash });
      return row;
    },

    /** Revokes one of the user's live keys; false when there is none with that id (or another user's). */
    async revoke(userId: string, id: string, now: Date, tx: DbOrTx = db): Promise<boolean> {
      const rows = await tx
        .update(apiKeys)
        .set({ revokedAt: now })
        .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
        .returning({ id: apiKeys.id });
      return rows.length === 1;
    },

    async revokeAll(userId: string, now: Date, tx: DbOrTx = db): Promise<number> {
      const rows = await tx
        .update(apiKeys)
        .set({ revokedAt: now })
        .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
        .returning({ id: apiKeys.id });
      return rows.length;
    },

    /** Moves last_used_at to `now` unless another request (any process) did after `since`. */
    async touch(id: string, now: Date, since: Date, tx: DbOrTx = db): Promise<void> {
      await tx
        .update(apiKeys)
        .set({ lastUsedAt: now })
        .where(and(eq(apiKeys.id, id), or(isNull(apiKeys.lastUsedAt), lte(apiKeys.lastUsedAt, since))));
    },
  };
}
export type ApiKeysRepository = ReturnType<typeof createApiKeysRepository>;
