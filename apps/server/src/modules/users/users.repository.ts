import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { preparedStatement } from '../../platform/db/prepared.ts';
import { liveSessionColumns, liveSessionCondition, sessions } from '../auth/index.ts';
import { creditBalances } from '../ledger/index.ts';
import { type UserRow, users } from './users.schema.ts';

export type NewUser = typeof users.$inferInsert;

/**
 * `/api/me`, which every screen loads, in one statement: the live session of the token (the
 * auth module's rule), the account and its money balance (the ledger's row, absent until the
 * first movement). Prepared (see platform/db/prepared.ts).
 */
const meByTokenHash = preparedStatement('users_me', (db, name) =>
  db
    .select({ ...liveSessionColumns, user: getTableColumns(users), moneyCentavos: creditBalances.available })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(creditBalances, and(eq(creditBalances.userId, users.id), eq(creditBalances.type, 'BALANCE')))
    .where(liveSessionCondition())
    .limit(1)
    .prepare(name),
);

/** SQL of the users module. Every method takes the handle to run on (the database or a transaction). */
export function createUsersRepository() {
  return {
    /** Inserts the user; undefined when the e-mail is taken (case-insensitive unique index). */
    async insert(db: DbOrTx, values: NewUser): Promise<UserRow | undefined> {
      const [row] = await db.insert(users).values(values).onConflictDoNothing().returning();
      return row;
    },

    async findById(db: DbOrTx, id: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
      return row;
    },

    /** The signed-in account and its money balance, by session token; see `meByTokenHash`. */
    async findMe(db: DbOrTx, tokenHash: string, now: Date) {
      const [row] = await meByTokenHash(db).execute({ tokenHash, now });
      return row;
    },

    async findByEmail(db: DbOrTx, email: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`).limit(1);
      return row;
    },

    async setActive(db: DbOrTx, id: string, active: boolean): Promise<UserRow | undefined> {
      const [row] = await db.update(users).set({ active, updatedAt: sql`now()` }).where(eq(users.id, id)).returning();
      return row;
    },

    /** Makes an existing user an active administrator. */
    async promoteToAdmin(db: DbOrTx, id: string): Promise<UserRow | undefined> {
      const [row] = await db
        .update(users)
        .set({ accessLevel: 'ADMINISTRATOR', active: true, updatedAt: sql`now()` })
        .where(eq(users.id, id))
        .returning();
      return row;
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
