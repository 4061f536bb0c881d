import { and, eq, ilike } from 'drizzle-orm';
import type { Database, Tx } from '../../platform/db/client.ts';
import { containsPattern } from '../../platform/db/like.ts';
import { findOwnedRow, findRowById, newestFirstPage } from '../../platform/db/paging.ts';
import { type AudioRow, audios } from './audios.schema.ts';

export type NewAudio = Omit<AudioRow, 'id' | 'createdAt' | 'updatedAt'>;

export function createAudiosRepository(db: Database) {
  return {
    async insert(row: NewAudio, now: Date): Promise<AudioRow> {
      const [created] = await db
        .insert(audios)
        .values({ ...row, createdAt: now, updatedAt: now })
        .returning();
      return created!;
    },

    findOwned: (userId: string, id: string): Promise<AudioRow | undefined> => findOwnedRow(db, audios, userId, id),

    findById: (id: string): Promise<AudioRow | undefined> => findRowById(db, audios, id),

    /** Newest first; `q` keeps the audios whose name contains it (the pickers' search). */
    async page(userId: string, page: number, pageSize: number, q = ''): Promise<{ rows: AudioRow[]; total: number }> {
      const where = q
        ? and(eq(audios.userId, userId), ilike(audios.name, containsPattern(q)))
        : eq(audios.userId, userId);
      return newestFirstPage(db, audios, where, { page, pageSize });
    },

    async rename(userId: string, id: string, name: string, now: Date): Promise<AudioRow | undefined> {
      const [row] = await db
        .update(audios)
        .set({ name, updatedAt: now })
        .where(and(eq(audios.id, id), eq(audios.userId, userId)))
        .returning();
      return row;
    },

    /**
     * Deletes the user's audio unless `inUse` (asked inside the transaction, with the row locked
     * FOR UPDATE) says a campaign needs it. A campaign that takes the audio reads its row FOR SHARE
     * in its own transaction, so the two cannot cross: one waits for the other.
     */
    /** Locks the user's audio (shared) for the rest of `tx`; false when it does not exist. */
    async lockShared(userId: string, id: string, tx: Tx): Promise<boolean> {
      const rows = await tx
        .select({ id: audios.id })
        .from(audios)
        .where(and(eq(audios.id, id), eq(audios.userId, userId)))
        .for('share');
      return rows.length > 0;
    },

    async deleteUnlessInUse(
      userId: string,
      id: string,
      inUse: (tx: Tx) => Promise<boolean>,
    ): Promise<{ deleted: AudioRow } | 'not-found' | 'in-use'> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(audios)
          .where(and(eq(audios.id, id), eq(audios.userId, userId)))
          .for('update');
        if (!row) return 'not-found';
        if (await inUse(tx)) return 'in-use';
        await tx.delete(audios).where(eq(audios.id, id));
        return { deleted: row };
      });
    },
  };
}

export type AudiosRepository = ReturnType<typeof createAudiosRepository>;
