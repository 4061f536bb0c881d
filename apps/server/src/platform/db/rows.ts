/**
 * The rows of a raw `db.execute(sql…)`: both drivers answer `{rows}`, which drizzle's generic
 * type does not say; repositories read them through this, typed.
 */
export const rowsOf = async <T>(q: Promise<unknown>): Promise<T[]> => ((await q) as { rows: T[] }).rows;
