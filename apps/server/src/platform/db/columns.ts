/**
 * The columns most tables declare alike: a random UUID id, the owning user, times with their
 * zone, and the `created_at`/`updated_at` pair. A table's own columns stay spelled out beside them.
 */
import { type AnyPgColumn, timestamp, uuid } from 'drizzle-orm/pg-core';

/** `id`: a random UUID, the primary key. */
export const randomId = () => uuid('id').primaryKey().defaultRandom();

/** A point in time, always stored with its zone (`timestamp with time zone`). */
export const timestamptz = (name: string) => timestamp(name, { withTimezone: true });

/** `created_at` and `updated_at`, both now on insert (the repositories move `updated_at`). */
export const timestamps = () => ({
  createdAt: timestamptz('created_at').notNull().defaultNow(),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
});

/** `user_id`: the user the row belongs to, required; `cascade` deletes the row with the user. */
export const ownedBy = (users: { id: AnyPgColumn }, options: { onDelete?: 'cascade' } = {}) =>
  uuid('user_id')
    .notNull()
    .references(() => users.id, options);
