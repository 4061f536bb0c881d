import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDb } from '../src/platform/db/client.ts';
import { runMigrations } from '../src/platform/db/migrate.ts';
import { createJobs } from '../src/platform/jobs/jobs.ts';
import { createLogger } from '../src/platform/logger.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A dump of a migrated PGlite (our schema and pg-boss's), loaded by each test file. */
    pgliteTemplate: string;
    /** On PostgreSQL: a migrated database nobody connects to, copied for tests that need a database of their own. */
    postgresTemplate: string;
  }
}

/**
 * Once per test run. On PostgreSQL the suite shares one database (each test makes its own
 * tenant, so files run in parallel): migrate it once here. On PGlite, a fresh database costs
 * ~3.5 s of initdb; a migrated template loads in ~0.8 s, so each file starts from this dump.
 */
export default async function setup(project: TestProject) {
  const databaseUrl = process.env.DATABASE_URL;
  project.provide('postgresTemplate', databaseUrl ? await createPostgresTemplate(databaseUrl) : '');
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
  return async () => {
    if (databaseUrl) await dropPostgresTemplate(databaseUrl);
  };
}

const templateName = () => `ecoa_test_tpl_${process.pid}`;

/**
 * Tests whose processes dispatch campaigns through their own carrier simulator need a database
 * no other test server works on (a shared one would let another file's server take their jobs).
 * `CREATE DATABASE … TEMPLATE` copies this migrated one in a fraction of a second.
 */
async function createPostgresTemplate(databaseUrl: string): Promise<string> {
  const name = templateName();
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  const db = await openDb({ databaseUrl: url.toString() });
  try {
    await runMigrations(db);
    const jobs = createJobs(db, createLogger('silent'));
    await jobs.start({ work: false });
    await jobs.stop();
  } finally {
    await db.close();
  }
  return name;
}

async function dropPostgresTemplate(databaseUrl: string): Promise<void> {
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${templateName()} with (force)`);
  } finally {
    await admin.end();
  }
}
