import path from 'node:path';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { REPO_ROOT } from '../paths.ts';
import type { DbHandle } from './client.ts';

export const MIGRATIONS_DIR = path.join(REPO_ROOT, 'apps/server/drizzle');

/** Arbitrary constant: every Ecoa process takes this advisory lock while migrating. */
const MIGRATION_LOCK_ID = 720_451_001;

/**
 * Applies the committed SQL migrations. Idempotent: applied ones are recorded by drizzle.
 * On PostgreSQL an advisory lock makes concurrent starts (server + workers) take turns.
 */
export async function runMigrations(handle: DbHandle): Promise<void> {
  const config = { migrationsFolder: MIGRATIONS_DIR };
  if (handle.kind === 'pglite') {
    await migratePglite(handle.db as unknown as PgliteDatabase, config);
    return;
  }
  const client = await handle.pool!.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await migrateNodePg(handle.db as unknown as NodePgDatabase, config);
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => {});
    client.release();
  }
}
