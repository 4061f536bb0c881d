import { cnpjChars } from '@ecoa/shared';
import { count, desc, eq, ilike, or, sql } from 'drizzle-orm';
import type { Database, DbOrTx, Tx } from '../../platform/db/client.ts';
import { newestFirstPage } from '../../platform/db/paging.ts';
import { preparedStatement } from '../../platform/db/prepared.ts';
import { type PriceColumn, type UserRow, users } from '../users/index.ts';

export type UserPatch = Partial<
  Pick<UserRow, 'active' | 'accessLevel' | 'permissionsEnriched' | 'apiRatePerSecond' | PriceColumn>
>;

/** Escapes LIKE wildcards so a search for "50%" means the text "50%". */
const likePattern = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Text that can be (part of) a CNPJ, typed with or without the mask: "12.345.678/0001", "1234",
 * "12.ABC.345" or even "AB.CDE" (alphanumeric since July 2026, letters allowed anywhere in the
 * first twelve): letters, digits and the mask's characters only. A word like "Padaria" also
 * matches, harmlessly: it is looked for in the CNPJs too, upper-cased.
 */
const CNPJ_LIKE = /^[\dA-Za-z./\-\s]+$/;

// The page as it opens (no search): prepared (see platform/db/prepared.ts).
const allUsersPage = preparedStatement('admin_users_page', (db, name) =>
  db
    .select()
    .from(users)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare(name),
);
const allUsersCount = preparedStatement('admin_users_count', (db, name) =>
  db.select({ n: count() }).from(users).prepare(name),
);

/** The administrators' view of the users table: search, read and change accounts. */
export function createAdminUsersRepository(db: Database) {
  return {
    /**
     * A page of users, newest first, whose company, full name or e-mail contains `search`
     * (any case), or whose CNPJ contains its digits when it is typed as a CNPJ.
     */
    async search(params: { search: string; page: number; pageSize: number }, tx: DbOrTx = db) {
      const term = params.search.trim();
      const limit = params.pageSize;
      const offset = (params.page - 1) * params.pageSize;
      if (!term) {
        const rows = await allUsersPage(tx).execute({ limit, offset });
        const [totals] = await allUsersCount(tx).execute();
        return { rows, total: Number(totals?.n ?? 0) };
      }
      const p = likePattern(term);
      const chars = cnpjChars(term);
      const where = or(
        ilike(users.name, p),
        ilike(users.fullName, p),
        ilike(users.email, p),
        ...(chars && CNPJ_LIKE.test(term) ? [ilike(users.cnpj, likePattern(chars))] : []),
      );
      return newestFirstPage(tx, users, where, params);
    },

    async findById(id: string, tx: DbOrTx = db): Promise<UserRow | undefined> {
      const [row] = await tx.select().from(users).where(eq(users.id, id)).limit(1);
      return row;
    },

    /** The row, locked until the transaction ends (so the audit's "before" is the real one). */
    async lockById(id: string, tx: Tx): Promise<UserRow | undefined> {
      const [row] = await tx.select().from(users).where(eq(users.id, id)).limit(1).for('update');
      return row;
    },

    async update(id: string, patch: UserPatch, tx: DbOrTx = db): Promise<UserRow> {
      const [row] = await tx
        .update(users)
        .set({ ...patch, updatedAt: sql`now()` })
        .where(eq(users.id, id))
        .returning();
      if (!row) throw new Error(`user ${id} vanished during update`);
      return row;
    },
  };
}
export type AdminUsersRepository = ReturnType<typeof createAdminUsersRepository>;
