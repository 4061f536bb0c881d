import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { acquirePgliteLock, type PgliteLock } from './pglite-lock.ts';

/**
 * A drizzle database on either driver. It carries no schema of its own: each feature's
 * repository imports its tables (`modules/<feature>/<feature>.schema.ts`), so the platform knows
 * no feature (and drizzle's relational `db.query` API, which would need them all, is not used).
 */
export type Database = PgDatabase<PgQueryResultHKT>;
/** The transaction handle drizzle passes to `db.transaction(cb)`; repositories accept either. */
export type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];
/**
 * The one repository idiom (docs/ARCHITECTURE.md): `create<Feature>Repository(db)` returns an
 * object of functions bound to the database (the `DbHandle` instead when it needs the driver
 * itself: COPY, the pool). A function that can run in the caller's transaction takes it LAST:
 * `tx: DbOrTx = db`, or `tx: DbOrTx` with no default when the statement only means something
 * inside that transaction (a row lock, a batch's settle). Services pass a transaction the same way.
 */
export type DbOrTx = Database | Tx;

/** Runs raw SQL; used by pg-boss and by the migrator lock. */
export type SqlExecutor = (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;

export type DbHandle = {
  kind: 'pglite' | 'postgres';
  db: Database;
  executeSql: SqlExecutor;
  /** Present on PostgreSQL: the connection string for pg-boss's own pool. */
  connectionString?: string;
  pglite?: PGlite;
  pool?: pg.Pool;
  close(): Promise<void>;
};

export type OpenDbOptions = {
  databaseUrl?: string;
  /** PGlite data directory; `memory://` for an in-memory database (tests). */
  pgliteDir?: string;
  /** PGlite only: start from a dump made by `dumpDataDir` (tests load a migrated template). */
  loadDataDir?: Blob;
  poolSize?: number;
  /** Told when an idle PostgreSQL connection breaks (the server restarted, the network dropped). */
  onIdleConnectionError?: (err: Error) => void;
};

/**
 * Raw SQL on the connection of a drizzle transaction, for libraries that take an executor
 * (pg-boss's `send(…, {db})`, so a job is enqueued in the caller's transaction). Drizzle keeps
 * that connection as `session.client` on both drivers: a pg PoolClient or a PGlite transaction,
 * and both answer `query(text, values)` with `{rows}`.
 */
export function sqlExecutorOf(tx: Tx): SqlExecutor {
  const client = (tx as unknown as { session: { client: { query: SqlExecutor } } }).session.client;
  return async (text, values) => {
    const result = await client.query(text, values ?? []);
    return { rows: result.rows };
  };
}

/**
 * One statement on the connection behind `db` (the pool, or the transaction's connection),
 * prepared under `name`: on PostgreSQL it is parsed and planned once per connection instead of
 * at every call, which matters for a hot, many-CTE statement (ledger transfers). PGlite runs in
 * this process, so it just runs the text. Raw rows: timestamps as Date, int8 as number
 * (node-postgres, parser below) or as PGlite returns them; callers normalise.
 * The name must always go with the same text (PostgreSQL refuses another text under a name).
 */
export async function runPrepared<T = Record<string, unknown>>(
  db: DbOrTx,
  name: string,
  text: string,
  values: unknown[],
): Promise<T[]> {
  const client = (db as unknown as { session: { client: unknown } }).session.client;
  if (client instanceof pg.Pool || client instanceof pg.Client) {
    const result = await client.query({ name, text, values });
    return result.rows as T[];
  }
  const result = await (client as { query: SqlExecutor }).query(text, values);
  return result.rows as T[];
}

// node-postgres returns int8/numeric as strings by default; we keep money in bigint columns
// but never beyond Number.MAX_SAFE_INTEGER centavos, so parse them as numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export async function openDb(options: OpenDbOptions): Promise<DbHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
    // Without a listener, an idle connection's error (PostgreSQL restarting) would end the
    // process. The pool drops that connection; the next query opens a new one.
    pool.on('error', (err) => options.onIdleConnectionError?.(err));
    // Fail fast with a clear message when the server is unreachable.
    await pool.query('select 1');
    const db = drizzleNodePg(pool) as unknown as Database;
    return {
      kind: 'postgres',
      db,
      pool,
      connectionString: options.databaseUrl,
      executeSql: async (text, values) => {
        const result = await pool.query(text, values as unknown[] | undefined);
        return { rows: result.rows };
      },
      close: () => pool.end(),
    };
  }
  const dir = options.pgliteDir ?? 'memory://';
  // On disk, the directory is this process's alone until close (pglite-lock.ts); memory is private anyway.
  let lock: PgliteLock | undefined;
  let pglite: PGlite;
  try {
    if (!dir.startsWith('memory://')) {
      lock = await acquirePgliteLock(dir);
      fs.mkdirSync(path.resolve(dir), { recursive: true });
      if (!options.loadDataDir && !fs.existsSync(path.join(dir, 'PG_VERSION'))) await initPgliteDir(path.resolve(dir));
    }
    pglite = await PGlite.create(dir, {
      startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS.flatMap((setting) => ['-c', setting])],
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    });
  } catch (err) {
    lock?.release();
    throw err;
  }
  const db = drizzlePglite(pglite) as unknown as Database;
  return {
    kind: 'pglite',
    db,
    pglite,
    executeSql: async (text, values) => {
      // pg-boss sends multi-statement scripts without parameters (installs, migrations):
      // `exec` runs those; parameterised statements go through `query`.
      if (!values || values.length === 0) {
        const results = await pglite.exec(text);
        return { rows: results.at(-1)?.rows ?? [] };
      }
      const result = await pglite.query(text, values);
      return { rows: result.rows };
    },
    close: async () => {
      try {
        if (!pglite.closed) await pglite.close();
      } finally {
        lock?.release();
      }
    },
  };
}

/**
 * PostgreSQL's defaults are sized for a server of its own; PGlite lives inside our process, and
 * WASM memory, once touched, is never given back. Emscripten zero-fills shared memory at start,
 * so the default 128 MB of shared_buffers alone was 115 MB of the idle server's RSS. PGlite reads
 * its files through the OS page cache, so a small buffer pool costs a syscall on a miss, not a
 * disk read (figures: bench/results/memory.json). One backend: no room for 100 connections.
 */
const PGLITE_SETTINGS = ['shared_buffers=16MB', 'max_connections=5', 'wal_buffers=1MB', 'temp_buffers=2MB'];

/**
 * A first start on an empty directory: run initdb in a child process, so the ~450 MB it leaves
 * in WASM memory goes away with that process instead of staying in the server for its whole life.
 */
function initPgliteDir(dir: string): Promise<void> {
  const script = fileURLToPath(new URL('./pglite-initdb.child.mjs', import.meta.url));
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [script, dir], (err, _stdout, stderr) => {
      if (err) reject(new Error(`PGlite initdb failed: ${stderr.trim() || err.message}`));
      else resolve();
    });
  });
}
