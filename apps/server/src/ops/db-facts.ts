/**
 * What a backup, a restore and a move to PostgreSQL compare on both sides: how many migrations
 * were applied, how many rows every table holds, and the ledger's totals per credit type. All
 * numbers travel as decimal strings, so a sum beyond 2^53 is compared exactly.
 */

/** One statement, its rows as plain objects (a PGlite handle or a pg client behind it). */
export type Query = (text: string, values?: unknown[]) => Promise<Record<string, unknown>[]>;

/** Per credit type: the ledger's sums (available = Σ amount, reserved = Σ reserved_delta) and the balances' sums. */
export type LedgerTotals = Record<
  string,
  { entries: string; entriesAmount: string; entriesReserved: string; available: string; reserved: string }
>;

export type DbFacts = {
  /** Ecoa's applied migrations (drizzle's journal in the database). */
  migrations: number;
  /** Rows per table: every table of the `public` schema, and `pgboss.job` when pg-boss is installed. */
  tables: Record<string, string>;
  ledger: LedgerTotals;
};

/** The tables of Ecoa's schema (partitions of a partitioned table are counted through their parent). */
export async function publicTables(query: Query): Promise<string[]> {
  const rows = await query(
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition order by c.relname`,
  );
  return rows.map((r) => String(r.name));
}

export async function schemaExists(query: Query, schema: string): Promise<boolean> {
  const rows = await query('select 1 from pg_namespace where nspname = $1', [schema]);
  return rows.length > 0;
}

export async function migrationCount(query: Query): Promise<number> {
  if (!(await schemaExists(query, 'drizzle'))) return 0;
  const [row] = await query('select count(*)::int as n from drizzle.__drizzle_migrations');
  return Number(row?.n ?? 0);
}

export async function tableCounts(query: Query): Promise<Record<string, string>> {
  const counts: Record<string, string> = {};
  for (const table of await publicTables(query)) {
    const [row] = await query(`select count(*)::text as n from public.${quoteIdent(table)}`);
    counts[table] = String(row?.n);
  }
  if (await schemaExists(query, 'pgboss')) {
    const [row] = await query('select count(*)::text as n from pgboss.job');
    counts['pgboss.job'] = String(row?.n);
  }
  return counts;
}

export async function ledgerTotals(query: Query): Promise<LedgerTotals> {
  const totals: LedgerTotals = {};
  const of = (type: string) => {
    totals[type] ??= { entries: '0', entriesAmount: '0', entriesReserved: '0', available: '0', reserved: '0' };
    return totals[type];
  };
  const entries = await query(
    `select type, count(*)::text as n, sum(amount)::text as amount, sum(reserved_delta)::text as reserved
     from ledger_entries group by type order by type`,
  );
  for (const r of entries) {
    Object.assign(of(String(r.type)), {
      entries: String(r.n),
      entriesAmount: String(r.amount),
      entriesReserved: String(r.reserved),
    });
  }
  const balances = await query(
    `select type, sum(available)::text as available, sum(reserved)::text as reserved
     from credit_balances group by type order by type`,
  );
  for (const r of balances)
    Object.assign(of(String(r.type)), { available: String(r.available), reserved: String(r.reserved) });
  return totals;
}

export async function readDbFacts(query: Query): Promise<DbFacts> {
  return {
    migrations: await migrationCount(query),
    tables: await tableCounts(query),
    ledger: await ledgerTotals(query),
  };
}

/**
 * The differences between what was expected (a manifest, the source database) and what is
 * there, one line each; empty when they agree. Tables only the actual side has (added by a
 * later migration) are not differences.
 */
export function compareFacts(
  expected: Pick<DbFacts, 'tables' | 'ledger'>,
  actual: Pick<DbFacts, 'tables' | 'ledger'>,
): string[] {
  const problems: string[] = [];
  for (const [table, rows] of Object.entries(expected.tables)) {
    const there = actual.tables[table];
    if (there !== rows) problems.push(`${table}: ${rows} rows expected, ${there ?? 'no table'} found`);
  }
  const types = new Set([...Object.keys(expected.ledger), ...Object.keys(actual.ledger)]);
  for (const type of [...types].sort()) {
    const want = JSON.stringify(expected.ledger[type] ?? null);
    const got = JSON.stringify(actual.ledger[type] ?? null);
    if (want !== got) problems.push(`ledger ${type}: expected ${want}, found ${got}`);
  }
  return problems;
}

/**
 * Whether the ledger agrees with itself: per type, Σ amount = Σ available and Σ reserved_delta =
 * Σ reserved (the invariant of ADR 002). A copy of a broken ledger is reported, not hidden.
 */
export function ledgerInconsistencies(ledger: LedgerTotals): string[] {
  return Object.entries(ledger).flatMap(([type, t]) => [
    ...(t.entriesAmount === t.available
      ? []
      : [`ledger ${type}: entries sum to ${t.entriesAmount}, balances to ${t.available}`]),
    ...(t.entriesReserved === t.reserved
      ? []
      : [`ledger ${type}: reservations sum to ${t.entriesReserved}, balances hold ${t.reserved}`]),
  ]);
}

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** A PGlite handle as a `Query`. */
export function pgliteQuery(pglite: {
  query: (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;
}): Query {
  return async (text, values) => (await pglite.query(text, values ?? [])).rows as Record<string, unknown>[];
}
