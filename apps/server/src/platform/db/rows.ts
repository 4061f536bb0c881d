/**
 * The rows of a raw `db.execute(sql…)`: both drivers answer `{rows}`, which drizzle's generic
 * type does not say; repositories read them through this, typed.
 */
export const rowsOf = async <T>(q: Promise<unknown>): Promise<T[]> => ((await q) as { rows: T[] }).rows;

/** A timestamp of a raw row as a Date: node-postgres parses it into one, PGlite may answer its text. */
export const dateOf = (v: Date | string): Date => (v instanceof Date ? v : new Date(v));

/** A timestamp (a raw row's, or a Date) as the API writes it, ISO 8601; null (or none) stays null. */
export const isoOrNull = (v: Date | string | null | undefined): string | null => (v ? dateOf(v).toISOString() : null);
