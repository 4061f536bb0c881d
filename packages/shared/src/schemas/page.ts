/** Every paged list endpoint alike: `?page&pageSize` in, one page of items and the total out. */
import { z } from 'zod';

export const paginationQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});

/** A page of a list endpoint: `pageSchema(item)` on the server, `Page<Item>` in the web app. */
export type Page<T> = { items: T[]; total: number; page: number; pageSize: number };

export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), total: z.number(), page: z.number(), pageSize: z.number() });
}
