/** Every paged list endpoint alike: `?page&pageSize` in, one page of items and the total out. */
import { z } from 'zod';

/**
 * `?page&pageSize` of a list, the one spelling every list route uses (`.extend` it with the list's
 * filters): 1-based pages, at most the millionth (a deeper OFFSET is nobody's list, only a slow
 * query), `pageSize` items each up to `maxPageSize`.
 */
export function paginationQuery({ pageSize = 20, maxPageSize = 100 } = {}) {
  return z.object({
    page: z.coerce.number().int().min(1).max(1_000_000).default(1),
    pageSize: z.coerce.number().int().min(1).max(maxPageSize).default(pageSize),
  });
}

export const paginationQuerySchema = paginationQuery();

/** A page of the user's named things (lists, audios), newest first; `q`: names containing it (a name is at most 120 characters). */
export const namedPageQuerySchema = paginationQuery().extend({ q: z.string().trim().max(120).default('') });

/** A page of a list endpoint: `pageSchema(item)` on the server, `Page<Item>` in the web app. */
export type Page<T> = { items: T[]; total: number; page: number; pageSize: number };

export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), total: z.number(), page: z.number(), pageSize: z.number() });
}
