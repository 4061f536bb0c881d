/**
 * The `_next` tables a refresh loads, and the swap that makes them live: the SQL of a refresh
 * (`cnpj-base.importer.ts` decides when each runs). SQL only.
 *
 * Loading: fresh copies of the live tables' columns, no index (a primary key maintained row by
 * row would slow the load several times), rows inserted in batches as arrays (`unnest`: one
 * statement and nine parameters per batch, fast on PGlite and PostgreSQL alike), then the
 * primary keys built once. Swap: one transaction drops the live tables, renames the `_next`
 * ones and their keys to the live names and records the new base, so a reader sees either the
 * whole old base or the whole new one.
 */
import { sql } from 'drizzle-orm';
import type { DbHandle } from '../../platform/db/client.ts';
import { sqlStateOf } from '../../platform/db/errors.ts';
import type { CompanyRecord, EstablishmentRecord } from './cnpj-base.rows.ts';

export const NEXT_TABLES = ['cnpj_companies_next', 'cnpj_establishments_next'] as const;

export type SwapSummary = {
  importId: string;
  referenceMonth: string;
  establishments: number;
  companies: number;
  importedAt: Date;
};

export type CnpjNextTablesRepository = ReturnType<typeof createCnpjNextTablesRepository>;

export function createCnpjNextTablesRepository(handle: DbHandle) {
  const run = (text: string, values?: unknown[]) => handle.executeSql(text, values);

  async function drop(): Promise<void> {
    for (const table of NEXT_TABLES) await run(`drop table if exists ${table}`);
  }

  /** Builds a primary key; duplicates (never seen in the Receita's files, but possible) keep one row each. */
  async function addPrimaryKey(table: string, column: string): Promise<void> {
    const statement = `alter table ${table} add constraint ${table}_pkey primary key (${column})`;
    const build = async () => {
      if (handle.kind === 'pglite') return void (await run(statement));
      // A key over tens of millions of rows sorts far faster with more memory than the default 64 MB.
      await handle.db.transaction(async (tx) => {
        await tx.execute(sql.raw("set local maintenance_work_mem = '512MB'"));
        await tx.execute(sql.raw(statement));
      });
    };
    try {
      await build();
    } catch (err) {
      if (sqlStateOf(err) !== '23505') throw err;
      await run(`delete from ${table} a using ${table} b where a.${column} = b.${column} and a.ctid > b.ctid`);
      await build();
    }
  }

  return {
    drop,

    /** Fresh, empty `_next` tables (whatever an interrupted import left is dropped first). */
    async create(): Promise<void> {
      await drop();
      await run('create table cnpj_companies_next (like cnpj_companies including defaults)');
      await run('create table cnpj_establishments_next (like cnpj_establishments including defaults)');
    },

    async insertCompanies(records: readonly CompanyRecord[]): Promise<void> {
      if (records.length === 0) return;
      await run(
        `insert into cnpj_companies_next (basico, company_name)
         select * from unnest($1::text[], $2::text[])`,
        [records.map((r) => r.basico), records.map((r) => r.companyName)],
      );
    },

    async insertEstablishments(records: readonly EstablishmentRecord[]): Promise<void> {
      if (records.length === 0) return;
      // Arrays must be rectangular, so each row's phones travel as one comma-joined text
      // ('' → '{}'; an E.164 number holds no comma).
      await run(
        `insert into cnpj_establishments_next (cnpj, basico, trade_name, situation, cnae, uf, city, phones, email)
         select cnpj, basico, trade_name, situation, cnae, uf, city, string_to_array(phones, ','), email
         from unnest($1::text[], $2::text[], $3::text[], $4::smallint[], $5::text[], $6::text[], $7::text[],
                     $8::text[], $9::text[])
           as r(cnpj, basico, trade_name, situation, cnae, uf, city, phones, email)`,
        [
          records.map((r) => r.cnpj),
          records.map((r) => r.basico),
          records.map((r) => r.tradeName),
          records.map((r) => r.situation),
          records.map((r) => r.cnae),
          records.map((r) => r.uf),
          records.map((r) => r.city),
          records.map((r) => r.phones.join(',')),
          records.map((r) => r.email),
        ],
      );
    },

    async addPrimaryKeys(): Promise<void> {
      await addPrimaryKey('cnpj_companies_next', 'basico');
      await addPrimaryKey('cnpj_establishments_next', 'cnpj');
    },

    /** Rows in the `_next` tables (after the keys: duplicates gone). */
    async counts(): Promise<{ establishments: number; companies: number }> {
      const { rows } = await run(
        `select (select count(*) from cnpj_establishments_next)::int as establishments,
                (select count(*) from cnpj_companies_next)::int as companies`,
      );
      return rows[0] as { establishments: number; companies: number };
    },

    /** The `_next` tables become the live ones, the base row and the import say so: all or nothing. */
    async swap(summary: SwapSummary): Promise<void> {
      await handle.db.transaction(async (tx) => {
        for (const table of ['cnpj_companies', 'cnpj_establishments']) {
          await tx.execute(sql.raw(`drop table ${table}`));
          await tx.execute(sql.raw(`alter table ${table}_next rename to ${table}`));
          await tx.execute(sql.raw(`alter index ${table}_next_pkey rename to ${table}_pkey`));
        }
        await tx.execute(sql`
          insert into cnpj_base (id, reference_month, establishments, companies, imported_at)
          values (1, ${summary.referenceMonth}, ${summary.establishments}, ${summary.companies}, ${summary.importedAt.toISOString()})
          on conflict (id) do update set reference_month = excluded.reference_month,
            establishments = excluded.establishments, companies = excluded.companies,
            imported_at = excluded.imported_at`);
        await tx.execute(sql`
          update cnpj_base_imports set status = 'done', file = null,
            rows = ${summary.establishments + summary.companies}, finished_at = ${summary.importedAt.toISOString()}
          where id = ${summary.importId}`);
      });
    },
  };
}
