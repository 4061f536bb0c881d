import { and, count, desc, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { type UserRow, users } from '../users/users.schema.ts';

export type UserPatch = Partial<
  Pick<
    UserRow,
    | 'active'
    | 'accessLevel'
    | 'permissionsEnriched'
    | 'priceSmsShort'
    | 'priceSmsFlash'
    | 'priceWhatsapp'
    | 'priceUra'
    | 'priceRcs'
    | 'priceUraIntegration'
    | 'priceEnriched'
  >
>;

/** Escapes LIKE wildcards so a search for "50%" means the text "50%". */
const likePattern = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function createAdminUsersRepository() {
  return {
    async search(db: DbOrTx, params: { search: string; page: number; pageSize: number }) {
      const term = params.search.trim();
      const digits = term.replace(/\D+/g, '');
      const conditions: SQL[] = [];
      if (term) {
        const p = likePattern(term);
        const byText = or(ilike(users.name, p), ilike(users.fullName, p), ilike(users.email, p));
        // A search typed with the CNPJ mask (12.345.678/0001-95) still finds the digits.
        conditions.push(
          digits.length >= 3 ? (or(byText, ilike(users.cnpj, likePattern(digits))) as SQL) : (byText as SQL),
        );
      }
      const where = conditions.length ? and(...conditions) : undefined;
      const [rows, totals] = await Promise.all([
        db
          .select()
          .from(users)
          .where(where)
          .orderBy(desc(users.createdAt), desc(users.id))
          .limit(params.pageSize)
          .offset((params.page - 1) * params.pageSize),
        db.select({ n: count() }).from(users).where(where),
      ]);
      return { rows, total: Number(totals[0]?.n ?? 0) };
    },

    async findById(db: DbOrTx, id: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
      return row;
    },

    async update(db: DbOrTx, id: string, patch: UserPatch): Promise<UserRow> {
      const [row] = await db
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
