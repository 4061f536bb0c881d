import { eq, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../platform/db/client.ts';
import { users } from '../users/index.ts';

const profileColumns = {
  id: users.id,
  email: users.email,
  name: users.name,
  fullName: users.fullName,
  cnpj: users.cnpj,
  mobilePhone: users.mobilePhone,
  profileImagePath: users.profileImagePath,
};

export type ProfileRow = {
  id: string;
  email: string;
  name: string;
  fullName: string;
  cnpj: string;
  mobilePhone: string;
  profileImagePath: string | null;
};

export type ProfileChanges = Partial<Pick<ProfileRow, 'name' | 'fullName' | 'mobilePhone'>>;

/** SQL of the account settings (the signed-in user's own row). */
export function createAccountRepository(db: Database) {
  return {
    async findProfile(userId: string, tx: DbOrTx = db): Promise<ProfileRow | undefined> {
      const [row] = await tx.select(profileColumns).from(users).where(eq(users.id, userId)).limit(1);
      return row;
    },

    /** The company name is also the fantasy name (the web sends both as one at sign-up). */
    async updateProfile(userId: string, changes: ProfileChanges, tx: DbOrTx = db): Promise<ProfileRow | undefined> {
      const [row] = await tx
        .update(users)
        .set({
          ...changes,
          ...(changes.name !== undefined ? { fantasyName: changes.name } : {}),
          updatedAt: sql`now()`,
        })
        .where(eq(users.id, userId))
        .returning(profileColumns);
      return row;
    },

    /**
     * Points the user at a new picture (or none) and answers the path it replaced, read and
     * written under one row lock, so two uploads racing each learn exactly the file they replaced.
     */
    async swapProfileImage(
      userId: string,
      imagePath: string | null,
      tx: DbOrTx = db,
    ): Promise<{ previous: string | null } | undefined> {
      return tx.transaction(async (tx) => {
        const [row] = await tx
          .select({ previous: users.profileImagePath })
          .from(users)
          .where(eq(users.id, userId))
          .for('update');
        if (!row) return undefined;
        await tx.update(users).set({ profileImagePath: imagePath, updatedAt: sql`now()` }).where(eq(users.id, userId));
        return row;
      });
    },
  };
}

export type AccountRepository = ReturnType<typeof createAccountRepository>;
