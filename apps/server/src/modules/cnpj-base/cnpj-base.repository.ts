/**
 * The CNPJ base's own rows: `cnpj_base` (the live base) and `cnpj_base_imports` (each import).
 * SQL only; the `_next` tables and the swap are in `cnpj-base.next-tables.repository.ts`.
 */
import { desc, eq, sql } from 'drizzle-orm';
import type { DbHandle } from '../../platform/db/client.ts';
import { cnpjBase, cnpjBaseImports } from './cnpj-base.schema.ts';

export type CnpjImportRow = typeof cnpjBaseImports.$inferSelect;
export type CnpjBaseRow = typeof cnpjBase.$inferSelect;

/** Arbitrary constant: the PostgreSQL advisory lock one import at a time holds (across processes). */
const IMPORT_LOCK_ID = 720_451_017;

export type CnpjBaseRepository = ReturnType<typeof createCnpjBaseRepository>;

export function createCnpjBaseRepository(handle: DbHandle) {
  const { db } = handle;
  return {
    async base(): Promise<CnpjBaseRow | undefined> {
      const [row] = await db.select().from(cnpjBase).where(eq(cnpjBase.id, 1));
      return row;
    },

    async lastImport(): Promise<CnpjImportRow | undefined> {
      const [row] = await db
        .select()
        .from(cnpjBaseImports)
        .orderBy(desc(cnpjBaseImports.startedAt), desc(cnpjBaseImports.id))
        .limit(1);
      return row;
    },

    async findImport(id: string): Promise<CnpjImportRow | undefined> {
      const [row] = await db.select().from(cnpjBaseImports).where(eq(cnpjBaseImports.id, id));
      return row;
    },

    async createImport(input: { folder: string; referenceMonth: string; startedAt: Date }): Promise<string> {
      const [row] = await db
        .insert(cnpjBaseImports)
        .values({ ...input, status: 'running' })
        .returning({ id: cnpjBaseImports.id });
      return row!.id;
    },

    /** Imports still 'running' other than `keep`: their process died (Ctrl-C, a crash). */
    async failAbandoned(keep: string, at: Date): Promise<void> {
      await db
        .update(cnpjBaseImports)
        .set({ status: 'failed', error: 'interrupted (the process stopped before the end)', finishedAt: at })
        .where(sql`${cnpjBaseImports.status} = 'running' and ${cnpjBaseImports.id} <> ${keep}`);
    },

    async progress(id: string, file: string, rows: number): Promise<void> {
      await db.update(cnpjBaseImports).set({ file, rows }).where(eq(cnpjBaseImports.id, id));
    },

    async fail(id: string, error: string, at: Date): Promise<void> {
      await db
        .update(cnpjBaseImports)
        .set({ status: 'failed', error: error.slice(0, 2000), finishedAt: at })
        .where(sql`${cnpjBaseImports.id} = ${id} and ${cnpjBaseImports.status} = 'running'`);
    },

    /** A job of the import queue waiting or running (pg-boss's table, on the same database). */
    async importPending(queue: string): Promise<boolean> {
      const { rows } = await handle.executeSql(
        "select 1 from pgboss.job where name = $1 and state in ('created', 'retry', 'active') limit 1",
        [queue],
      );
      return rows.length > 0;
    },

    /**
     * One import at a time: on PostgreSQL a session advisory lock on a connection of its own
     * (held until `release`), so a CLI and the server cannot load the same `_next` tables
     * together; null when another holds it. On PGlite the database is this process's alone
     * (pid lock) and the service runs one import at a time, so there is nothing to take.
     */
    async tryLockImports(): Promise<{ release(): Promise<void> } | null> {
      if (!handle.pool) return { release: async () => {} };
      const client = await handle.pool.connect();
      const { rows } = await client.query('select pg_try_advisory_lock($1) as ok', [IMPORT_LOCK_ID]);
      if (!(rows[0] as { ok: boolean }).ok) {
        client.release();
        return null;
      }
      return {
        async release() {
          await client.query('select pg_advisory_unlock($1)', [IMPORT_LOCK_ID]).catch(() => {});
          client.release();
        },
      };
    },
  };
}
