import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * SQL lives in `<feature>.repository.ts` files (docs/ARCHITECTURE.md, issue 22): services,
 * modules, routes, jobs and readers hold rules and call a repository. Besides repositories, only
 * `<feature>.schema.ts` (the tables: defaults, checks, indexes) may write SQL under `modules/`;
 * `platform/db/` and the processes around the modules are the database's own plumbing, not a
 * feature, and are not read here. The ledger's repository is bound to a handle (ADR 021) but is
 * still a `.repository.ts`, so it needs no exception.
 */
const modules = path.resolve(import.meta.dirname, '../src/modules');

/** Files under `modules/` that still hold SQL outside a repository, each with the reason. Keep it empty. */
const NOT_YET_MOVED: Record<string, string> = {};

const MARKERS: [RegExp, string][] = [
  [/\bsql\s*`/, 'sql`…`'],
  [/\bsql\.raw\(/, 'sql.raw('],
  [/\bexecuteSql\(/, 'executeSql('],
  [/\.execute\(/, '.execute('],
  [/\b(?:db|tx|trx)\s*\.\s*(?:select|selectDistinct|insert|update|delete)\(/, 'a query builder'],
  [/^import (?!type\b)[^;]*from 'drizzle-orm'/m, "a value import of 'drizzle-orm'"],
];

/** How a source text writes SQL (comments ignored): the markers found, empty when it writes none. */
export function sqlMarkersIn(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  return MARKERS.filter(([re]) => re.test(code)).map(([, name]) => name);
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.ts$/.test(entry.name) && !/\.(test|test-support)\.ts$/.test(entry.name) ? [full] : [];
  });
}

const mayHoldSql = (rel: string) => /\.(repository|schema)\.ts$/.test(rel);

describe('SQL lives in repositories', () => {
  it('finds SQL in code, not in comments or type imports', () => {
    expect(sqlMarkersIn("await db.executeSql('select 1');")).toEqual(['executeSql(']);
    expect(sqlMarkersIn("import { sql } from 'drizzle-orm';\nawait tx.execute(sql`select 1`);")).toEqual([
      'sql`…`',
      '.execute(',
      "a value import of 'drizzle-orm'",
    ]);
    expect(sqlMarkersIn('const rows = await db.select().from(users);')).toEqual(['a query builder']);
    expect(
      sqlMarkersIn("import type { SQL } from 'drizzle-orm';\n/** runs sql`select 1` */\n// db.execute(x)"),
    ).toEqual([]);
  });

  it('outside *.repository.ts and *.schema.ts, no module file writes SQL', () => {
    const offences: string[] = [];
    for (const file of sourceFiles(modules)) {
      const rel = path.relative(modules, file).split(path.sep).join('/');
      if (mayHoldSql(rel) || rel in NOT_YET_MOVED) continue;
      const markers = sqlMarkersIn(fs.readFileSync(file, 'utf8'));
      if (markers.length > 0) offences.push(`modules/${rel}: ${markers.join(', ')}`);
    }
    expect(offences).toEqual([]);
  });

  it('every file still waiting to move exists and still holds SQL (a moved one leaves the list)', () => {
    for (const rel of Object.keys(NOT_YET_MOVED))
      expect(sqlMarkersIn(fs.readFileSync(path.join(modules, rel), 'utf8')), rel).not.toEqual([]);
  });
});
