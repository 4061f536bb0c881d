/** `npm run db:migrate`: applies the committed migrations to DATABASE_URL or the PGlite in DATA_DIR. */
import { openDb } from './platform/db/client.ts';
import { runMigrations } from './platform/db/migrate.ts';
import { loadConfigOrExit } from './platform/process.ts';
import { pgliteDir } from './server.ts';

const config = loadConfigOrExit();
const db = await openDb({ databaseUrl: config.databaseUrl, pgliteDir: pgliteDir(config) });
try {
  await runMigrations(db);
  process.stdout.write(`migrations applied (${db.kind})\n`);
} finally {
  await db.close();
}
