/**
 * `npm run bench`: runs every `bench/*.bench.ts` on PGlite and on PostgreSQL and writes each
 * one's figures to `bench/results/<name>.json` at the repository root.
 *
 * A bench file exports `run({ db, kind }) → figures` (a flat object of numbers/strings). Each
 * runs on a freshly migrated database: PGlite in memory, and PostgreSQL from DATABASE_URL or,
 * when unset, a throwaway database created on the local server (postgres@127.0.0.1:5432) and
 * dropped afterwards; without a reachable server the PostgreSQL half is skipped with a note.
 *
 *   npm run bench                 # every bench
 *   npm run bench -- ledger       # only files whose name contains "ledger"
 *   npm run bench -- campaign --db=postgres   # one database only (that half of the result file)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import { type DbHandle, openDb } from '../src/platform/db/client.ts';
import { runMigrations } from '../src/platform/db/migrate.ts';

/** `url`: the PostgreSQL database's address (for benches that start Ecoa as processes of its own). */
export type BenchContext = { db: DbHandle; kind: DbHandle['kind']; url?: string };
export type BenchFigures = Record<string, number | string | boolean>;
/** `poolSize`: PostgreSQL connections the bench needs (default 10), e.g. one per request in flight. */
export type BenchModule = { run(ctx: BenchContext): Promise<BenchFigures>; poolSize?: number };

/** Other work on the machine skews the figures: the 1-minute load average when they were taken. */
const loadAverage1m = () => Math.round(os.loadavg()[0]! * 100) / 100;

const here = path.dirname(fileURLToPath(import.meta.url));
const resultsDir = path.resolve(here, '../../../bench/results');

async function withPostgres<T>(fn: (url: string) => Promise<T>): Promise<T | { skipped: string }> {
  if (process.env.DATABASE_URL) return fn(process.env.DATABASE_URL);
  const adminUrl = process.env.BENCH_POSTGRES_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const admin = new pg.Client({ connectionString: adminUrl });
  try {
    await admin.connect();
  } catch (err) {
    return { skipped: `no PostgreSQL server (${(err as Error).message}); set DATABASE_URL` };
  }
  const name = `ecoa_bench_${Date.now()}_${process.pid}`;
  await admin.query(`create database ${name}`);
  try {
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return await fn(url.toString());
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`).catch(() => {});
    await admin.end();
  }
}

async function runOn(kind: DbHandle['kind'], file: string, url?: string): Promise<BenchFigures> {
  const mod = (await import(pathToFileURL(file).href)) as BenchModule;
  const db = url
    ? await openDb({ databaseUrl: url, poolSize: mod.poolSize ?? 10 })
    : await openDb({ pgliteDir: 'memory://' });
  // An idle pooled connection cut by the final `drop database … with (force)` must not crash the run.
  db.pool?.on('error', () => {});
  try {
    await runMigrations(db);
    return await mod.run({ db, kind, url });
  } finally {
    await db.close();
  }
}

async function main() {
  const filter = process.argv.slice(2).find((a) => !a.startsWith('-'));
  // `--db=postgres` (or pglite) runs one database only, to iterate: figures printed, nothing written.
  const only = process.argv.find((a) => a.startsWith('--db='))?.slice('--db='.length);
  const files = fs
    .readdirSync(here)
    .filter((f) => f.endsWith('.bench.ts') && (!filter || f.includes(filter)))
    .sort()
    .map((f) => path.join(here, f));
  if (files.length === 0) throw new Error(`no bench files${filter ? ` matching "${filter}"` : ''} in ${here}`);
  fs.mkdirSync(resultsDir, { recursive: true });
  for (const file of files) {
    const name = path.basename(file, '.bench.ts');
    console.log(`\n== ${name} ==`);
    if (only === 'pglite' || only === 'postgres') {
      const figures =
        only === 'pglite' ? await runOn('pglite', file) : await withPostgres((url) => runOn('postgres', file, url));
      console.log(only, figures);
      // The other database's half of the result file is kept as it was (its own `at` and load).
      const target = path.join(resultsDir, `${name}.json`);
      const previous = fs.existsSync(target) ? JSON.parse(fs.readFileSync(target, 'utf8')) : { bench: name };
      const at = { at: new Date().toISOString(), loadAverage1m: loadAverage1m() };
      fs.writeFileSync(target, `${JSON.stringify({ ...previous, [only]: { ...at, ...figures } }, null, 2)}\n`);
      console.log(`→ ${path.relative(process.cwd(), target)} (${only} only)`);
      continue;
    }
    const pglite = await runOn('pglite', file);
    console.log('pglite', pglite);
    const postgres = await withPostgres((url) => runOn('postgres', file, url));
    console.log('postgres', postgres);
    const out = {
      bench: name,
      at: new Date().toISOString(),
      machine: {
        cpus: os.cpus().length,
        cpu: os.cpus()[0]?.model ?? 'unknown',
        node: process.version,
        loadAverage1m: loadAverage1m(),
      },
      pglite,
      postgres,
    };
    const target = path.join(resultsDir, `${name}.json`);
    fs.writeFileSync(target, `${JSON.stringify(out, null, 2)}\n`);
    console.log(`→ ${path.relative(process.cwd(), target)}`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
