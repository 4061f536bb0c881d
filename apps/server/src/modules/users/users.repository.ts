import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { type UserRow, users } from './users.schema.ts';

export type NewUser = typeof users.$inferInsert;

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
