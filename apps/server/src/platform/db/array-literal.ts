/**
 * A Postgres array literal (`{"a","b",NULL}`) for a query parameter cast to an array type
 * (`${pgArray(ids)}::uuid[]`). Drizzle's `sql` template does not bind a JS array as one array
 * parameter on both drivers alike, so set-based statements (`unnest`, `= any`) pass this text.
 */
export function pgArray(values: readonly (string | number | null | undefined)[]): string {
  const items = values.map((v) => {
    if (v === null || v === undefined) return 'NULL';
    if (typeof v === 'number') return String(v);
    return `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  });
  return `{${items.join(',')}}`;
}
