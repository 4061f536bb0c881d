import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { type DbHandle, openDb } from '../src/platform/db/client.ts';
import { MIGRATIONS_DIR, runMigrations } from '../src/platform/db/migrate.ts';
import { createJobs, defineQueue } from '../src/platform/jobs/jobs.ts';
import {
  createTestServer,
  dbKind,
  openTestDb,
  silentLogger,
  TEST_DATABASE_URL,
  tempDir,
  testConfig,
} from './server.test-support.ts';

/** The migrations committed in apps/server/drizzle (drizzle's journal lists each once). */
const MIGRATION_COUNT = (
  JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as { entries: unknown[] }
).entries.length;

async function appliedMigrations(db: DbHandle): Promise<number> {
  const { rows } = await db.executeSql('select count(*)::int as n from drizzle.__drizzle_migrations');
  return (rows[0] as { n: number }).n;
}

/** A new, empty PostgreSQL database on the test server (no schema at all), dropped by close(). */
async function emptyPostgresDatabase(): Promise<{ url: string; close(): Promise<void> }> {
  const name = `ecoa_empty_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${name}`).finally(() => admin.end());
  const url = new URL(TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async close() {
      const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`).finally(() => c.end());
    },
  };
}

describe(`database and jobs (${dbKind})`, () => {
  const toClose: { close(): Promise<void> }[] = [];
  afterAll(async () => {
    for (const c of toClose.reverse()) await c.close();
  });

  it('applies migrations idempotently: a second start changes nothing', async () => {
    if (TEST_DATABASE_URL) {
      // A database nobody migrated yet: the suite's own is migrated by the global setup already,
      // where a runMigrations that did nothing at all would pass.
      const fresh = await emptyPostgresDatabase();
      const db = await openDb({ databaseUrl: fresh.url, poolSize: 2 });
      toClose.push(fresh, db);
      await runMigrations(db);
      expect(await appliedMigrations(db)).toBe(MIGRATION_COUNT);
      await runMigrations(db);
      expect(await appliedMigrations(db)).toBe(MIGRATION_COUNT);
      const { rows } = await db.executeSql("select to_regclass('public.users') as t");
      expect((rows[0] as { t: string }).t).toBe('users');
      return;
    }
    // PGlite on disk, as `npm start` uses it: start, stop, start again on the same DATA_DIR.
    const config = testConfig({ DATA_DIR: tempDir() });
    const first = await createTestServer({ config, pgliteOnDisk: true });
    await first.db.executeSql(
      "insert into users (email, name, full_name, cnpj, mobile_phone) values ('keep@ecoa.test', 'Keep', 'Keep Me', '11222333000181', '11912345678')",
    );
    expect(await appliedMigrations(first.db)).toBe(MIGRATION_COUNT);
    await first.close();
    const second = await createTestServer({ config, pgliteOnDisk: true });
    toClose.push(second);
    expect(await appliedMigrations(second.db)).toBe(MIGRATION_COUNT);
    const { rows } = await second.db.executeSql("select count(*)::int as n from users where email = 'keep@ecoa.test'");
    expect((rows[0] as { n: number }).n).toBe(1);
    const health = await second.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.json()).toEqual({ status: 'ok' });
    // Two on-disk PGlite starts (initdb, migrations): ~18 s on a quiet machine, more on a busy one.
  }, 90_000);

  // PGlite is one process's alone (its lock file), so only PostgreSQL has concurrent migrators.
  it.runIf(dbKind === 'postgres')(
    'runs migrations concurrently without clashing (PostgreSQL advisory lock)',
    async () => {
      // Three processes starting at once on a database nobody migrated yet (without the lock, two
      // of them create the same tables and one fails: "relation … already exists").
      const fresh = await emptyPostgresDatabase();
      toClose.push(fresh);
      const handles = await Promise.all([1, 2, 3].map(() => openDb({ databaseUrl: fresh.url, poolSize: 2 })));
      toClose.push(...handles);
      await Promise.all(handles.map((handle) => runMigrations(handle)));
      expect(await appliedMigrations(handles[0]!)).toBe(MIGRATION_COUNT);
    },
    60_000,
  );

  it('enqueues a job and works it on the same database', async () => {
    const db = await openTestDb();
    await runMigrations(db);
    const jobs = createJobs(db, silentLogger);
    const queue = defineQueue<{ value: number }>(`test-echo-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`);
    const seen: { value: number }[] = [];
    let done!: () => void;
    const finished = new Promise<void>((resolve) => {
      done = resolve;
    });
    jobs.work(queue, {
      handler: async (data) => {
        seen.push(data);
        if (seen.length === 3) done();
      },
    });
    await jobs.start({ work: true });
    await Promise.all([1, 2, 3].map((value) => jobs.send(queue, { value })));
    await finished;
    expect(seen.map((s) => s.value).sort()).toEqual([1, 2, 3]);
    await jobs.stop();
    await db.close();
  });

  it('lets a running job finish on graceful stop', async () => {
    const db = await openTestDb();
    await runMigrations(db);
    const jobs = createJobs(db, silentLogger);
    const queue = defineQueue<object>(`test-slow-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`);
    let started!: () => void;
    const isRunning = new Promise<void>((resolve) => {
      started = resolve;
    });
    let finishedAt = 0;
    jobs.work(queue, {
      handler: async () => {
        started();
        await new Promise((r) => setTimeout(r, 800));
        finishedAt = Date.now();
      },
    });
    await jobs.start({ work: true });
    const id = await jobs.send(queue, {});
    await isRunning;
    await jobs.stop(10_000);
    const stoppedAt = Date.now();
    expect(finishedAt).toBeGreaterThan(0);
    expect(finishedAt).toBeLessThanOrEqual(stoppedAt);
    const state = await db.executeSql('select state from pgboss.job where id = $1', [id]);
    expect((state.rows[0] as { state: string }).state).toBe('completed');
    await db.close();
  });

  it.runIf(dbKind === 'pglite')(
    'on PGlite, a job cut off by a crash is retried at the next start, not after its lease',
    async () => {
      const db = await openTestDb();
      await runMigrations(db);
      const queue = defineQueue<{ n: number }>(`test-orphan-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`, {
        expireInSeconds: 15 * 60,
        retryDelaySeconds: 1,
      });
      // The "crashed" process: its handler never ends, as if the process died mid-job.
      const crashed = createJobs(db, silentLogger);
      let started!: () => void;
      const isRunning = new Promise<void>((resolve) => {
        started = resolve;
      });
      crashed.work(queue, {
        handler: () => {
          started();
          return new Promise<void>(() => {});
        },
      });
      await crashed.start({ work: true });
      const id = await crashed.send(queue, { n: 1 });
      await isRunning;
      await crashed.boss.offWork(queue.name); // the dead process polls no more

      // The next start on the same database works the job again at once.
      const restarted = createJobs(db, silentLogger);
      let workedAgain!: (jobId: string) => void;
      const again = new Promise<string>((resolve) => {
        workedAgain = resolve;
      });
      restarted.work(queue, { handler: async (_data, job) => workedAgain(job.id) });
      const before = Date.now();
      await restarted.start({ work: true });
      expect(await again).toBe(id);
      expect(Date.now() - before).toBeLessThan(60_000);
      const { rows } = await db.executeSql('select state, retry_count from pgboss.job where id = $1', [id]);
      expect(rows[0]).toMatchObject({ retry_count: 1 });
      await restarted.stop(1000);
      await db.close();
    },
  );

  it('refuses an unreachable PostgreSQL with a clear error', async () => {
    // Port 1 on loopback: nothing listens there; the error names the refused address.
    await expect(openDb({ databaseUrl: 'postgres://nobody@127.0.0.1:1/none' })).rejects.toThrow(
      /ECONNREFUSED 127\.0\.0\.1:1\b/,
    );
  });
});
