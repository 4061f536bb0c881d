import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import type { SimulatorOverrides } from '../src/modules/channels/providers/index.ts';
import type { Clock } from '../src/platform/clock/clock.ts';
import { type Config, loadConfig } from '../src/platform/config/config.ts';
import { type Database, type DbHandle, openDb, type Tx } from '../src/platform/db/client.ts';
import { createLogger, type Logger } from '../src/platform/logger.ts';
import { WEB_LOCALES_DIR } from '../src/platform/paths.ts';
import { type RunningServer, startServer } from '../src/server.ts';

/** The database the suite runs on: PostgreSQL when DATABASE_URL is set, PGlite otherwise. */
export const TEST_DATABASE_URL = process.env.DATABASE_URL || undefined;
export const dbKind = TEST_DATABASE_URL ? 'postgres' : 'pglite';

/**
 * Runs `fn` in a transaction that is rolled back at the end, whatever it wrote: a test seeds
 * thousands of rows, reads a plan or counters, and leaves the shared database as it found it.
 */
export async function inRolledBackTransaction<T>(db: Database, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const rollBack = new Error('roll back');
  let result: { value: T } | undefined;
  await db
    .transaction(async (tx) => {
      result = { value: await fn(tx) };
      throw rollBack;
    })
    .catch((err: unknown) => {
      if (err !== rollBack) throw err;
    });
  return result!.value;
}

export function tempDir(prefix = 'ecoa-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    DATA_DIR: tempDir(),
    ...(TEST_DATABASE_URL ? { DATABASE_URL: TEST_DATABASE_URL } : {}),
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    NODE_ENV: 'test',
    ...overrides,
  });
}

export const silentLogger = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');

/** A fresh in-memory PGlite (from the migrated template), or a pool on the shared PostgreSQL test database. */
export async function openTestDb(): Promise<DbHandle> {
  if (TEST_DATABASE_URL) return openDb({ databaseUrl: TEST_DATABASE_URL, poolSize: 4 });
  const template = inject('pgliteTemplate');
  const loadDataDir = template ? new Blob([fs.readFileSync(template)]) : undefined;
  return openDb({ pgliteDir: 'memory://', loadDataDir });
}

/**
 * A database of this test's own: on PostgreSQL a copy of the migrated template (dropped by
 * `drop()`), so no other test file's server takes its jobs; on PGlite undefined (every file's
 * PGlite is its own already).
 */
export async function isolatedDatabaseUrl(): Promise<{ url: string; drop(): Promise<void> } | undefined> {
  if (!TEST_DATABASE_URL) return undefined;
  const name = `ecoa_iso_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`create database ${name} template ${inject('postgresTemplate')}`);
  } finally {
    await admin.end();
  }
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`).finally(() => c.end());
    },
  };
}

/** A stand-in for the built SPA: an index.html plus the real locale files. */
export function fixtureWebRoot(): string {
  const dir = tempDir('ecoa-web-');
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><html><body><div id="root"></div></body></html>');
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'assets', 'app-1234.js'), 'console.log("app")');
  fs.cpSync(WEB_LOCALES_DIR, path.join(dir, 'locales'), { recursive: true });
  return dir;
}

/** A free TCP port on loopback (for a test server that carriers' simulators must call back). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A config whose server listens on a free loopback port, with PUBLIC_URL pointing at it. */
export async function listeningTestConfig(overrides: Record<string, string> = {}): Promise<Config> {
  const port = await freePort();
  return testConfig({ PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: `http://127.0.0.1:${port}`, ...overrides });
}

/**
 * The whole server (migrations, jobs, routes, the carriers' simulators) on a test database,
 * driven with `app.inject`; `listen: true` also serves HTTP on the config's port (the
 * simulators post their webhooks there: use `listeningTestConfig()`).
 */
export async function createTestServer(
  options: {
    config?: Config;
    work?: boolean;
    db?: DbHandle;
    pgliteOnDisk?: boolean;
    clock?: Clock;
    listen?: boolean;
    simulators?: SimulatorOverrides;
    /** A database of its own on PostgreSQL (campaign tests: no other file's server may take their jobs). */
    isolated?: boolean;
    /** Where the server logs (silent unless given). */
    logger?: Logger;
  } = {},
): Promise<RunningServer> {
  const own = options.isolated ? await isolatedDatabaseUrl() : undefined;
  const base = options.config ?? testConfig();
  const config = own ? { ...base, databaseUrl: own.url } : base;
  // PGlite in memory unless the test wants the DATA_DIR files `npm start` uses.
  const inMemory = !config.databaseUrl && !options.pgliteOnDisk;
  const db = options.db ?? (inMemory ? await openTestDb() : undefined);
  const server = await startServer({
    config,
    logger: options.logger ?? silentLogger,
    listen: options.listen ?? false,
    work: options.work ?? true,
    simulators: options.simulators,
    webRoot: fixtureWebRoot(),
    db,
    clock: options.clock,
  });
  return {
    ...server,
    close: async () => {
      await server.close();
      if (db && !options.db) await db.close();
      await own?.drop();
    },
  };
}
