import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import type { Clock } from '../src/platform/clock/clock.ts';
import { type Config, loadConfig } from '../src/platform/config/config.ts';
import { type DbHandle, openDb } from '../src/platform/db/client.ts';
import { createLogger } from '../src/platform/logger.ts';
import { WEB_LOCALES_DIR } from '../src/platform/paths.ts';
import { type RunningServer, startServer } from '../src/server.ts';

/** The database the suite runs on: PostgreSQL when DATABASE_URL is set, PGlite otherwise. */
export const TEST_DATABASE_URL = process.env.DATABASE_URL || undefined;
export const dbKind = TEST_DATABASE_URL ? 'postgres' : 'pglite';

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

/** A stand-in for the built SPA: an index.html plus the real locale files. */
export function fixtureWebRoot(): string {
  const dir = tempDir('ecoa-web-');
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><html><body><div id="root"></div></body></html>');
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'assets', 'app-1234.js'), 'console.log("app")');
  fs.cpSync(WEB_LOCALES_DIR, path.join(dir, 'locales'), { recursive: true });
  return dir;
}

/** The whole server (migrations, jobs, routes) on a test database, driven with `app.inject`. */
export async function createTestServer(
  options: { config?: Config; work?: boolean; db?: DbHandle; pgliteOnDisk?: boolean; clock?: Clock } = {},
): Promise<RunningServer> {
  const config = options.config ?? testConfig();
  // PGlite in memory unless the test wants the DATA_DIR files `npm start` uses.
  const inMemory = !config.databaseUrl && !options.pgliteOnDisk;
  const db = options.db ?? (inMemory ? await openTestDb() : undefined);
  const server = await startServer({
    config,
    logger: silentLogger,
    listen: false,
    work: options.work ?? true,
    webRoot: fixtureWebRoot(),
    db,
    clock: options.clock,
  });
  return {
    ...server,
    close: async () => {
      await server.close();
      if (db && !options.db) await db.close();
    },
  };
}
