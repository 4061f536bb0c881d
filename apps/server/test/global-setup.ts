import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDb } from '../src/platform/db/client.ts';
import { runMigrations } from '../src/platform/db/migrate.ts';
import { createJobs } from '../src/platform/jobs/jobs.ts';
import { createLogger } from '../src/platform/logger.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A dump of a migrated PGlite (our schema and pg-boss's), loaded by each test file. */
    pgliteTemplate: string;
  }
}

/**
 * Once per test run. On PostgreSQL the suite shares one database (each test makes its own
 * tenant, so files run in parallel): migrate it once here. On PGlite, a fresh database costs
 * ~3.5 s of initdb; a migrated template loads in ~0.8 s, so each file starts from this dump.
 */
export default async function setup(project: TestProject) {
  const databaseUrl = process.env.DATABASE_URL;
  const db = databaseUrl ? await openDb({ databaseUrl }) : await openDb({ pgliteDir: 'memory://' });
  try {
    await runMigrations(db);
    const jobs = createJobs(db, createLogger('silent'));
    await jobs.start({ work: false });
    await jobs.stop();
    if (db.pglite) {
      const dump = await db.pglite.dumpDataDir('none');
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ecoa-pglite-')), 'template.tar');
      fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
      project.provide('pgliteTemplate', file);
    } else {
      project.provide('pgliteTemplate', '');
    }
  } finally {
    await db.close();
  }
}
