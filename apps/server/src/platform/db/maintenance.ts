/**
 * VACUUM and ANALYZE where nobody else does them. Every message is updated three times (claimed,
 * settled, its receipt), and PostgreSQL reuses the space of old row versions only once a VACUUM
 * has passed. A PostgreSQL server does that itself (autovacuum); the embedded PGlite never does,
 * nor does a server run with `autovacuum = off`. Without it, `messages` grows by three dead rows
 * per message sent, forever (200,000 messages: 161 MB, of which three quarters dead), and the
 * planner has no statistics. This does what autovacuum would, with its default thresholds, from
 * the `db.maintenance` job.
 */
import { defineQueue, type Jobs } from '../jobs/jobs.ts';
import type { Logger } from '../logger.ts';
import type { DbHandle } from './client.ts';

/** autovacuum's defaults: a table is vacuumed past 50 + 20% dead rows, analyzed past 50 + 10% changed. */
const VACUUM_BASE = 50;
const VACUUM_SHARE = 0.2;
const ANALYZE_BASE = 50;
const ANALYZE_SHARE = 0.1;

export type TableNeeds = { table: string; vacuum: boolean; analyze: boolean };

/** Whether the database cleans up after itself: PostgreSQL with autovacuum on does; PGlite never. */
export async function vacuumsItself(db: Pick<DbHandle, 'kind' | 'executeSql'>): Promise<boolean> {
  if (db.kind === 'pglite') return false;
  const { rows } = await db.executeSql(`select current_setting('autovacuum') = 'on' as on`);
  return (rows[0] as { on: boolean }).on;
}

/** The tables of the public schema past autovacuum's thresholds (from the statistics PostgreSQL keeps). */
export async function tablesNeedingCare(db: Pick<DbHandle, 'executeSql'>): Promise<TableNeeds[]> {
  const { rows } = await db.executeSql(
    `select * from (
       select relname as "table",
              n_dead_tup > $1::float8 + $2::float8 * n_live_tup as vacuum,
              n_mod_since_analyze > $3::float8 + $4::float8 * n_live_tup as "analyze"
         from pg_stat_user_tables
        where schemaname = 'public') t
      where vacuum or "analyze"
      order by "table"`,
    [VACUUM_BASE, VACUUM_SHARE, ANALYZE_BASE, ANALYZE_SHARE],
  );
  return rows as TableNeeds[];
}

/**
 * One pass: each table past a threshold vacuumed and/or analyzed, one statement each (outside any
 * transaction, as VACUUM must be). On PGlite a pass holds the only connection while it runs
 * (1.4 s for a table of 200,000 rows and 600,000 dead ones); it runs every ten minutes so that
 * each pass has little to do. Returns what was done.
 */
export async function maintainTables(db: Pick<DbHandle, 'kind' | 'executeSql'>): Promise<TableNeeds[]> {
  if (await vacuumsItself(db)) return [];
  const needs = await tablesNeedingCare(db);
  for (const { table, vacuum, analyze } of needs) {
    // Names come from pg_stat_user_tables; quoted as identifiers all the same.
    const name = `"${table.replaceAll('"', '""')}"`;
    await db.executeSql(vacuum ? `vacuum ${analyze ? '(analyze) ' : ''}${name}` : `analyze ${name}`);
  }
  return needs;
}

/** Every ten minutes, once across processes. */
export const databaseMaintenanceQueue = defineQueue<object>('db.maintenance', {
  schedule: '*/10 * * * *',
  retryLimit: 2,
  expireInSeconds: 1_800,
});

/** The `db.maintenance` job: a pass of maintainTables, what it did logged. */
export function defineDatabaseMaintenance(jobs: Jobs, deps: { db: DbHandle; logger: Logger }): void {
  jobs.work(databaseMaintenanceQueue, {
    handler: async () => {
      const t0 = performance.now();
      const done = await maintainTables(deps.db);
      if (done.length > 0)
        deps.logger.info({ tables: done, ms: Math.round(performance.now() - t0) }, 'tables vacuumed and analyzed');
    },
  });
}
