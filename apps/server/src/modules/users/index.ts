/**
 * The users module's public surface: the `users` table, which every other table references by
 * its owner's id, and the per-user price columns. The service and its repository are wired by
 * the composition root (modules/index.ts) only.
 */
export { PRICE_COLUMNS, type PriceColumn, type UserRow, users } from './users.schema.ts';
