/**
 * Rows from the embedded PGlite to PostgreSQL, exactly and in bounded memory: the source is
 * read through a cursor, a batch at a time, every column as its text form (the text form of any
 * PostgreSQL type reads back as the same value: microseconds, numerics, jsonb, arrays, bytea),
 * and streamed into `COPY … FROM STDIN` on the target. COPY keeps the values of identity columns
 * as given (like OVERRIDING SYSTEM VALUE), so ids stay what they were.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { type Query, quoteIdent } from './db-facts.ts';

/** Rows per FETCH: a few MB even for wide rows (messages with their text). */
export const COPY_BATCH_ROWS = 2_000;

/** The columns a COPY may write (generated ones are computed by the target). */
export async function copyableColumns(query: Query, schema: string, table: string): Promise<string[]> {
  const rows = await query(
    `select a.attname as name from pg_attribute a
     join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = $1 and c.relname = $2 and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
     order by a.attnum`,
    [schema, table],
  );
  return rows.map((r) => String(r.name));
}

/**
 * Copies `schema.table` (the columns both sides have; a column only the source has is an error:
 * the schemas should be the same migrations). Runs inside the caller's source transaction, so
 * every table is read from one snapshot. Returns the rows copied.
 */
export async function copyTable(options: {
  source: PGlite;
  target: pg.ClientBase;
  schema: string;
  table: string;
  batchRows?: number;
}): Promise<number> {
  const { source, target, schema, table } = options;
  const sourceQuery: Query = async (text, values) =>
    (await source.query(text, values)).rows as Record<string, unknown>[];
  const targetQuery: Query = async (text, values) => (await target.query(text, values)).rows;
  const sourceColumns = await copyableColumns(sourceQuery, schema, table);
  const targetColumns = new Set(await copyableColumns(targetQuery, schema, table));
  const missing = sourceColumns.filter((c) => !targetColumns.has(c));
  if (missing.length > 0) {
    throw new Error(
      `${schema}.${table}: the target has no column ${missing.join(', ')} (are both on the same migrations?)`,
    );
  }
  if (sourceColumns.length === 0) return 0;
  const qualified = `${quoteIdent(schema)}.${quoteIdent(table)}`;
  const columnList = sourceColumns.map(quoteIdent).join(', ');
  const cursor = `ops_copy_${table.replace(/\W/g, '_')}`;
  await source.query(
    `declare ${cursor} no scroll cursor for select ${sourceColumns.map((c) => `${quoteIdent(c)}::text`).join(', ')} from ${qualified}`,
  );
  let copied = 0;
  const batchRows = options.batchRows ?? COPY_BATCH_ROWS;
  async function* lines(): AsyncGenerator<string> {
    for (;;) {
      const { rows } = await source.query<unknown[]>(`fetch ${batchRows} from ${cursor}`, [], { rowMode: 'array' });
      if (rows.length === 0) return;
      copied += rows.length;
      yield rows.map((row) => `${row.map((v) => copyField(v as string | null)).join('\t')}\n`).join('');
    }
  }
  try {
    await pipeline(Readable.from(lines()), target.query(copyFrom(`copy ${qualified} (${columnList}) from stdin`)));
  } finally {
    await source.query(`close ${cursor}`).catch(() => {});
  }
  return copied;
}

const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** One value in COPY's text format: `\N` is NULL; backslash, newline, CR and tab escaped. */
export function copyField(value: string | null): string {
  if (value === null) return '\\N';
  return value.replace(/[\\\n\r\t]/g, (c) => COPY_ESCAPES[c]!);
}

/**
 * Every sequence of the `public` schema, set on the target to the source's exact state
 * (`last_value`, `is_called`): the identity and serial columns' ones (created by the migrations)
 * and each rotating link's turn sequence (`rotating_links.turn_sequence`, created here), so the
 * next id and the next link turn continue where they were.
 */
export async function copySequences(source: Query, target: pg.ClientBase): Promise<number> {
  const sequences = await source(
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and c.relkind = 'S' order by c.relname`,
  );
  for (const { name } of sequences) {
    const qualified = `public.${quoteIdent(String(name))}`;
    const [state] = await source(`select last_value::text as last_value, is_called from ${qualified}`);
    await target.query(`create sequence if not exists ${qualified}`);
    await target.query('select setval($1::regclass, $2::bigint, $3::boolean)', [
      qualified,
      state!.last_value,
      state!.is_called,
    ]);
  }
  return sequences.length;
}

export type ForeignKey = { table: string; name: string; definition: string };

/**
 * Drops the `public` schema's foreign keys for the load and gives back what re-adds them:
 * tables then load in any order (a table that references itself included), with no superuser
 * rights (session_replication_role needs them), and re-adding checks every row once at the end,
 * as pg_restore does.
 */
export async function dropForeignKeys(target: pg.ClientBase): Promise<ForeignKey[]> {
  const { rows } = await target.query<ForeignKey>(
    `select c.conrelid::regclass::text as table, c.conname as name, pg_get_constraintdef(c.oid) as definition
     from pg_constraint c join pg_namespace n on n.oid = c.connamespace
     where c.contype = 'f' and n.nspname = 'public' order by 1, 2`,
  );
  for (const fk of rows) await target.query(`alter table ${fk.table} drop constraint ${quoteIdent(fk.name)}`);
  return rows;
}

export async function addForeignKeys(target: pg.ClientBase, keys: ForeignKey[]): Promise<void> {
  for (const fk of keys)
    await target.query(`alter table ${fk.table} add constraint ${quoteIdent(fk.name)} ${fk.definition}`);
}
