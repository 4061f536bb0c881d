import { and, eq, sql } from 'drizzle-orm';
import type { Database, DbOrTx, Tx } from '../../platform/db/client.ts';
import { rowsOf } from '../../platform/db/rows.ts';
import { apiIdempotencyKeys } from './messages-api.schema.ts';

/** The answer a request with an `Idempotency-Key` gave, and what it was asked. */
export type StoredAnswer = { requestHash: string; status: number; response: unknown };

export function createMessagesApiRepository(db: Database) {
  return {
    async find(userId: string, key: string, tx: DbOrTx = db): Promise<StoredAnswer | undefined> {
      const [row] = await tx
        .select({
          requestHash: apiIdempotencyKeys.requestHash,
          status: apiIdempotencyKeys.status,
          response: apiIdempotencyKeys.response,
        })
        .from(apiIdempotencyKeys)
        .where(and(eq(apiIdempotencyKeys.userId, userId), eq(apiIdempotencyKeys.key, key)));
      return row;
    },

    /**
     * Takes the key for this transaction, first thing in it: false when another request holds it.
     * A twin running at the same moment waits here on the key's unique entry until the first
     * commits (then false: its answer is stored) or rolls back (then true: this one goes on).
     */
    async claim(userId: string, key: string, requestHash: string, tx: Tx): Promise<boolean> {
      const rows = await tx
        .insert(apiIdempotencyKeys)
        .values({ userId, key, requestHash, status: 0, response: {} })
        .onConflictDoNothing()
        .returning({ key: apiIdempotencyKeys.key });
      return rows.length > 0;
    },

    async store(userId: string, key: string, status: number, response: unknown, tx: Tx): Promise<void> {
      await tx
        .update(apiIdempotencyKeys)
        .set({ status, response })
        .where(and(eq(apiIdempotencyKeys.userId, userId), eq(apiIdempotencyKeys.key, key)));
    },

    /**
     * Keys created before `cutoff` deleted, `batch` at a time (each a short statement on the
     * created-at index, never one long delete holding the table); how many.
     */
    async purgeBefore(cutoff: Date, batch = 5_000): Promise<number> {
      let total = 0;
      for (;;) {
        const [row] = await rowsOf<{ n: number | string }>(
          db.execute(sql`with gone as (
              delete from api_idempotency_keys where (user_id, key) in (
                select user_id, key from api_idempotency_keys where created_at < ${cutoff} limit ${batch})
              returning 1)
            select count(*) as n from gone`),
        );
        const n = Number(row?.n ?? 0);
        total += n;
        if (n < batch) return total;
      }
    },
  };
}

export type MessagesApiRepository = ReturnType<typeof createMessagesApiRepository>;
