/**
 * The job queue moves too: pg-boss keeps its queues, schedules and jobs (waiting, retrying,
 * finished and archived) in the `pgboss` schema of the same database. Its tables are pg-boss's
 * own, not our migrations, so the target gets them from pg-boss's construction plan (the
 * installed version: the same one that wrote the source), each queue through pg-boss's
 * `create_queue` (every queue is a partition of `pgboss.job`), then the rows.
 * A job that was `active` when the source stopped stays `active`; on PostgreSQL its lease
 * expires (15 minutes by default) and pg-boss hands it out again, as after any crash.
 */
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import PgBoss from 'pg-boss';
import { AppError } from '../platform/errors/app-error.ts';
import { type Query, schemaExists } from './db-facts.ts';
import { copyTable } from './table-copy.ts';

const SCHEMA = 'pgboss';

/**
 * Before the data transaction (the construction plan commits on its own): installs pg-boss's
 * schema on the target, replacing one that holds no job (a server started on the empty target
 * once). Returns false when the source has no pg-boss schema (never started).
 */
export async function preparePgBossSchema(source: Query, target: pg.ClientBase): Promise<boolean> {
  if (!(await schemaExists(source, SCHEMA))) return false;
  const targetQuery: Query = async (text, values) => (await target.query(text, values)).rows;
  if (await schemaExists(targetQuery, SCHEMA)) {
    const [jobs] = await targetQuery('select count(*)::int as n from pgboss.job');
    if (Number(jobs?.n) > 0) {
      throw new AppError('DB_MOVE_TARGET_NOT_EMPTY', undefined, {
        text: `db:move: the target database already holds ${jobs?.n} pg-boss jobs.`,
      });
    }
    await target.query(`drop schema ${SCHEMA} cascade`);
  }
  await target.query(PgBoss.getConstructionPlans(SCHEMA));
  const [sourceVersion] = await source('select version from pgboss.version');
  const [targetVersion] = await targetQuery('select version from pgboss.version');
  if (Number(sourceVersion?.version) !== Number(targetVersion?.version)) {
    throw new AppError('DB_MOVE_PGBOSS_VERSION', undefined, {
      text:
        `db:move: the PGlite's job tables are pg-boss schema version ${sourceVersion?.version}, this Ecoa's are ${targetVersion?.version}. ` +
        'Start the server once on DATA_DIR (it upgrades them), stop it, and run db:move again.',
    });
  }
  return true;
}

/** Inside the data transaction: queues, schedules, subscriptions, jobs and the archive. Returns the jobs copied. */
export async function copyPgBossData(source: PGlite, target: pg.ClientBase): Promise<{ queues: number; jobs: number }> {
  // A dead-letter queue must exist before the queues that name it.
  const { rows: queues } = await source.query<Record<string, unknown>>(
    `select name, policy, retry_limit, retry_delay, retry_backoff, expire_seconds, retention_minutes, dead_letter
     from pgboss.queue order by (dead_letter is not null), name`,
  );
  for (const q of queues) {
    const options = {
      policy: q.policy,
      retryLimit: q.retry_limit,
      retryDelay: q.retry_delay,
      retryBackoff: q.retry_backoff,
      expireInSeconds: q.expire_seconds,
      retentionMinutes: q.retention_minutes,
      deadLetter: q.dead_letter,
    };
    await target.query('select pgboss.create_queue($1, $2::json)', [q.name, JSON.stringify(options)]);
  }
  for (const table of ['schedule', 'subscription']) await copyTable({ source, target, schema: SCHEMA, table });
  // Rows into the parent table land in their queue's partition.
  const jobs = await copyTable({ source, target, schema: SCHEMA, table: 'job' });
  await copyTable({ source, target, schema: SCHEMA, table: 'archive' });
  return { queues: queues.length, jobs };
}
