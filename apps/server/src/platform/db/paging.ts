/**
 * The reads every owned-rows repository makes the same way: one row by id (optionally only its
 * owner's), and a page of rows newest first (`created_at desc, id desc`) with the total the
 * `where` matches.
 */
import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from './client.ts';

type WithId = PgTable & { id: PgColumn };
/** Rows that belong to a user. */
export type OwnedTable = WithId & { userId: PgColumn };
/** Rows listed newest first. */
export type NewestFirstTable = WithId & { createdAt: PgColumn };
type Row<T extends PgTable> = T['$inferSelect'];

/** The row `id` of `table`, whoever owns it. */
export async function findRowById<T extends WithId>(db: DbOrTx, table: T, id: string): Promise<Row<T> | undefined> {
  const rows = await db
    .select()
    .from(table as PgTable)
    .where(eq(table.id, id));
  return rows[0] as Row<T> | undefined;
}

/** The row `id` of `table` when `userId` owns it (another user's row is as good as missing). */
export async function findOwnedRow<T extends OwnedTable>(
  db: DbOrTx,
  table: T,
  userId: string,
  id: string,
): Promise<Row<T> | undefined> {
  const rows = await db
    .select()
    .from(table as PgTable)
    .where(and(eq(table.id, id), eq(table.userId, userId)));
  return rows[0] as Row<T> | undefined;
}

/** Page `page` (from 1) of `pageSize` rows matching `where`, newest first, and how many match in all. */
export async function newestFirstPage<T extends NewestFirstTable>(
  db: DbOrTx,
  table: T,
  where: SQL | undefined,
  paging: { page: number; pageSize: number },
): Promise<{ rows: Row<T>[]; total: number }> {
  const rows = await db
    .select()
    .from(table as PgTable)
    .where(where)
    .orderBy(desc(table.createdAt), desc(table.id))
    .limit(paging.pageSize)
    .offset((paging.page - 1) * paging.pageSize);
  const [total] = await db
    .select({ n: count() })
    .from(table as PgTable)
    .where(where);
  return { rows: rows as Row<T>[], total: Number(total?.n ?? 0) };
}

/**
 * Every row of a query in key order, `batchSize` at a time (keyset paging: each batch starts
 * after the last key of the one before, so it stays fast however deep it goes). `fetch` reads
 * the batch after `after`; `keyOf` names a row's key.
 */
export async function* keysetBatches<Row, Key>(
  first: Key,
  batchSize: number,
  fetch: (after: Key, limit: number) => Promise<unknown[]>,
  keyOf: (row: Row) => Key,
): AsyncGenerator<Row[]> {
  let after = first;
  for (;;) {
    const rows = (await fetch(after, batchSize)) as Row[];
    if (rows.length === 0) return;
    yield rows;
    after = keyOf(rows.at(-1)!);
    if (rows.length < batchSize) return;
  }
}
