import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../../../test/processes.test-support.ts';
import { dbKind, isolatedDatabaseUrl, openTestDb } from '../../../test/server.test-support.ts';
import { type DbHandle, openDb } from './client.ts';
import { maintainTables, tablesNeedingCare, vacuumsItself } from './maintenance.ts';

/**
 * A database that does not vacuum itself (PGlite always; PostgreSQL with autovacuum off, as on
 * this project's CI machine) gets VACUUM and ANALYZE from Ecoa, past autovacuum's thresholds:
 * dead row versions are reclaimed and statistics exist.
 */
describe(`tables vacuumed and analyzed where nobody else does (${dbKind})`, () => {
  let db: DbHandle;
  let own: Awaited<ReturnType<typeof isolatedDatabaseUrl>>;
  beforeAll(async () => {
    own = await isolatedDatabaseUrl();
    db = own ? await openDb({ databaseUrl: own.url, poolSize: 2 }) : await openTestDb();
  });
  afterAll(async () => {
    await db?.close();
    await own?.drop();
  });

  const stats = async () => {
    const { rows } = await db.executeSql(
      `select n_dead_tup::int as dead, vacuum_count::int as vacuums, analyze_count::int as analyzes
         from pg_stat_user_tables where relname = 'maintenance_probe'`,
    );
    return rows[0] as { dead: number; vacuums: number; analyzes: number };
  };

  it('knows who vacuums: PGlite never, PostgreSQL as its autovacuum setting says', async () => {
    if (db.kind === 'pglite') expect(await vacuumsItself(db)).toBe(false);
    else {
      const { rows } = await db.executeSql(`select current_setting('autovacuum') as v`);
      expect(await vacuumsItself(db)).toBe((rows[0] as { v: string }).v === 'on');
    }
  });

  it('vacuums and analyzes a table past the thresholds, and leaves a quiet one alone', async () => {
    await db.executeSql('create table maintenance_probe (id int primary key, v int)');
    await db.executeSql('create table maintenance_quiet (id int primary key)');
    await db.executeSql('insert into maintenance_probe select g, 0 from generate_series(1, 1000) g');
    await db.executeSql('insert into maintenance_quiet values (1)');
    // Two updates of every row: 2,000 dead versions of 1,000 live ones (autovacuum's line is 250).
    await db.executeSql('update maintenance_probe set v = 1');
    await db.executeSql('update maintenance_probe set v = 2');
    if (await vacuumsItself(db)) {
      expect(await maintainTables(db)).toEqual([]);
      return;
    }
    // PostgreSQL publishes a transaction's counts within a second or so.
    await waitUntil('the dead rows counted', async () => (await stats())?.dead >= 2000, 10_000);
    const needs = await tablesNeedingCare(db);
    expect(needs).toContainEqual({ table: 'maintenance_probe', vacuum: true, analyze: true });

    const done = await maintainTables(db);
    expect(done).toContainEqual({ table: 'maintenance_probe', vacuum: true, analyze: true });
    expect(done.map((t) => t.table)).not.toContain('maintenance_quiet');
    await waitUntil('the vacuum counted', async () => (await stats()).vacuums >= 1, 10_000);
    expect(await stats()).toEqual({ dead: 0, vacuums: 1, analyzes: 1 });
    // The planner has statistics now.
    const { rows } = await db.executeSql(
      `select count(*)::int as n from pg_stats where tablename = 'maintenance_probe' and attname = 'v'`,
    );
    expect(rows).toEqual([{ n: 1 }]);
  });
});
