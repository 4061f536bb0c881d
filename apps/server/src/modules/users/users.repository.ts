import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../platform/db/client.ts';
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

/** SQL of the users module. */
export function createUsersRepository(db: Database) {
  return {
    /** Inserts the user; undefined when the e-mail is taken (case-insensitive unique index). */
    async insert(values: NewUser, tx: DbOrTx = db): Promise<UserRow | undefined> {
      const [row] = await tx.insert(users).values(values).onConflictDoNothing().returning();
      return row;
    },

    async findById(id: string, tx: DbOrTx = db): Promise<UserRow | undefined> {
      const [row] = await tx.select().from(users).where(eq(users.id, id)).limit(1);
      return row;
    },

    /** The signed-in account and its money balance, by session token; see `meByTokenHash`. */
    async findMe(tokenHash: string, now: Date, tx: DbOrTx = db) {
      const [row] = await meByTokenHash(tx).execute({ tokenHash, now });
      return row;
    },

    async findByEmail(email: string, tx: DbOrTx = db): Promise<UserRow | undefined> {
      const [row] = await tx.select().from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`).limit(1);
      return row;
    },

    async setActive(id: string, active: boolean, tx: DbOrTx = db): Promise<UserRow | undefined> {
      const [row] = await tx.update(users).set({ active, updatedAt: sql`now()` }).where(eq(users.id, id)).returning();
      return row;
    },

    /** Makes an existing user an active administrator. */
    async promoteToAdmin(id: string, tx: DbOrTx = db): Promise<UserRow | undefined> {
      const [row] = await tx
        .update(users)
        .set({ accessLevel: 'ADMINISTRATOR', active: true, updatedAt: sql`now()` })
        .where(eq(users.id, id))
        .returning();
      return row;
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
