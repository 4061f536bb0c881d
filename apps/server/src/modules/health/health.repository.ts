import type { DbHandle } from '../../platform/db/client.ts';

/** The health module's one statement: does the database answer? */
export function createHealthRepository(db: Pick<DbHandle, 'executeSql'>) {
  return {
    /** Resolves once the database answered a trivial query; rejects when it cannot. */
    async ping(): Promise<void> {
      await db.executeSql('select 1');
    },
  };
}

export type HealthRepository = ReturnType<typeof createHealthRepository>;
