/**
 * `npm run db:move -- postgres://…`: everything in the embedded PGlite of DATA_DIR into an empty
 * PostgreSQL database. The schema comes from our migrations run on the target (the source is
 * migrated first, so both are the same version); the rows are streamed table by table
 * (table-copy.ts), pg-boss's queues and jobs too (pgboss-copy.ts), then every sequence.
 *
 * The load is one transaction on the target, checked before it commits: every table's rows and
 * the ledger's totals must equal the source's, or nothing is kept and the target stays empty
 * (so the command can simply be run again). Files under DATA_DIR stay where they are: the
 * server on PostgreSQL still keeps uploads, audios and avatars there.
 */
import type { Config } from '../platform/config/config.ts';
import { type DbHandle, openDb } from '../platform/db/client.ts';
import { runMigrations } from '../platform/db/migrate.ts';
import { AppError } from '../platform/errors/app-error.ts';
import { openExistingPglite } from './data-dir.ts';
import {
  compareFacts,
  type DbFacts,
  pgliteQuery,
  publicTables,
  type Query,
  quoteIdent,
  readDbFacts,
  schemaExists,
} from './db-facts.ts';
import { copyPgBossData, preparePgBossSchema } from './pgboss-copy.ts';
import { addForeignKeys, copySequences, copyTable, dropForeignKeys } from './table-copy.ts';

export type DbMoveResult = {
  facts: DbFacts;
  tables: number;
  sequences: number;
  queues: number;
  jobs: number;
  seconds: number;
};

export async function moveToPostgres(options: {
  config: Config;
  targetUrl: string;
  onProgress?: (line: string) => void;
}): Promise<DbMoveResult> {
  const { config, targetUrl } = options;
  const progress = options.onProgress ?? (() => {});
  const started = performance.now();
  if (config.databaseUrl) {
    throw new AppError('DB_MOVE_ALREADY_POSTGRES', undefined, {
      text: 'db:move: DATABASE_URL is already set, so this deployment runs on PostgreSQL; db:move copies the PGlite in DATA_DIR. Unset DATABASE_URL to run it.',
    });
  }
  if (!/^postgres(ql)?:\/\/[^/]/.test(targetUrl)) {
    throw new AppError('DB_MOVE_BAD_URL', undefined, {
      text: 'db:move: the target must be a postgres:// or postgresql:// URL.',
    });
  }

  const source = await openExistingPglite(config, 'db:move');
  let target: DbHandle | undefined;
  try {
    const pglite = source.pglite!;
    const sourceQuery = pgliteQuery(pglite);
    // The server would do this at its next start anyway; it makes both sides the same schema.
    await runMigrations(source);
    target = await openDb({ databaseUrl: targetUrl, poolSize: 2 }).catch((err: Error) => {
      throw new AppError('DB_MOVE_UNREACHABLE', undefined, {
        text: `db:move: cannot connect to the target database: ${err.message}`,
      });
    });
    const pool = target.pool!;
    await assertTargetEmpty(async (text, values) => (await pool.query(text, values)).rows);
    progress('target is empty: applying the migrations');
    // Before taking our connection: the migrator holds one for its lock and queries on another.
    await runMigrations(target);
    const client = await pool.connect();
    try {
      const targetQuery: Query = async (text, values) => (await client.query(text, values)).rows;
      const hasJobs = await preparePgBossSchema(sourceQuery, client);

      // One snapshot of the source for every table (nothing else writes it: we hold its lock).
      await pglite.exec('begin isolation level repeatable read read only');
      await client.query('begin');
      try {
        // The copy brings `message_status_counts` as it is: the counting triggers stay out of it.
        await client.query(`set local ecoa.copying_tables = 'on'`);
        const keys = await dropForeignKeys(client);
        const tables = await publicTables(sourceQuery);
        for (const table of tables) {
          const t0 = performance.now();
          const rows = await copyTable({ source: pglite, target: client, schema: 'public', table });
          progress(
            `${table}: ${rows.toLocaleString('en-US')} rows (${((performance.now() - t0) / 1000).toFixed(1)} s)`,
          );
        }
        const { queues, jobs } = hasJobs ? await copyPgBossData(pglite, client) : { queues: 0, jobs: 0 };
        progress(`pg-boss: ${queues} queues, ${jobs.toLocaleString('en-US')} jobs`);
        const sequences = await copySequences(sourceQuery, client);
        progress(`${sequences} sequences set`);
        progress('checking foreign keys');
        await addForeignKeys(client, keys);

        const facts = await readDbFacts(sourceQuery);
        const copied = await readDbFacts(targetQuery);
        const problems = compareFacts(facts, copied);
        if (facts.migrations !== copied.migrations) {
          problems.unshift(`migrations: ${facts.migrations} on PGlite, ${copied.migrations} on PostgreSQL`);
        }
        if (problems.length > 0) {
          throw new AppError('DB_MOVE_MISMATCH', undefined, {
            text: `db:move: the copy differs, nothing was kept: ${problems.join('; ')}`,
          });
        }
        await client.query('commit');
        const seconds = (performance.now() - started) / 1000;
        return { facts, tables: tables.length, sequences, queues, jobs, seconds };
      } catch (err) {
        await client.query('rollback').catch(() => {});
        throw err;
      } finally {
        await pglite.exec('rollback').catch(() => {});
      }
    } finally {
      client.release();
    }
  } finally {
    await target?.close();
    await source.close();
  }
}

/** Refuses a target where any of Ecoa's tables (or pg-boss's jobs) has a row: we never merge into data. */
async function assertTargetEmpty(query: Query): Promise<void> {
  const filled: string[] = [];
  for (const table of await publicTables(query)) {
    const rows = await query(`select exists (select 1 from public.${quoteIdent(table)}) as filled`);
    if (rows[0]?.filled) filled.push(table);
  }
  if (await schemaExists(query, 'pgboss')) {
    const rows = await query('select exists (select 1 from pgboss.job) as filled');
    if (rows[0]?.filled) filled.push('pgboss.job');
  }
  if (filled.length > 0) {
    throw new AppError('DB_MOVE_TARGET_NOT_EMPTY', undefined, {
      text: `db:move: the target database is not empty (${filled.slice(0, 6).join(', ')}${filled.length > 6 ? ', …' : ''} hold rows); move into a new, empty database.`,
    });
  }
}
