import type { DbOrTx } from './client.ts';

/**
 * A drizzle prepared statement per database handle, built on its first use.
 *
 *   const byId = preparedStatement('users_by_id', (db, name) =>
 *     db.select().from(users).where(eq(users.id, sql.placeholder('id'))).prepare(name));
 *   const [row] = await byId(db).execute({ id });
 *
 * For the queries every request runs (the session check, `/api/me`): building a query through
 * drizzle's builder costs more CPU than the query itself on PostgreSQL (the `api` bench: about
 * a quarter of a request's time), and a named statement is parsed and planned once per
 * connection instead of at every call. Keyed by handle, so a transaction gets its own (bound to
 * its connection) and a closed database's statements go with it.
 */
export function preparedStatement<T>(name: string, build: (db: DbOrTx, name: string) => T): (db: DbOrTx) => T {
  const byHandle = new WeakMap<DbOrTx, T>();
  return (db) => {
    let statement = byHandle.get(db);
    if (!statement) {
      statement = build(db, name);
      byHandle.set(db, statement);
    }
    return statement;
  };
}
