/**
 * The users module's public surface: the `users` table, which every other table references by
 * its owner's id, and the per-user price columns. Not its service: that needs the auth and ledger indexes (the
 * `/api/me` statement), whose tables need this one, so re-exporting it here would close a cycle;
 * the composition root (modules/index.ts) builds it from users.module.ts.
 */
export { PRICE_COLUMNS, type PriceColumn, type UserRow, users } from './users.schema.ts';
