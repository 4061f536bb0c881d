/**
 * The links the hop serves, kept in memory for a second: a click then costs one `nextval` in
 * the database instead of reading the link and its targets again. An edit made in this process
 * is seen at once (`forget`); one made in another process within `ttlMs`. Unknown slugs are
 * remembered too, so a flood of bad addresses does not reach the database either.
 */
import type { HopLink } from './links.repository.ts';

export function createLinkCache(options: {
  load: (slug: string) => Promise<HopLink | undefined>;
  ttlMs?: number;
  maxEntries?: number;
  now?: () => number;
}) {
  const ttlMs = options.ttlMs ?? 1000;
  const maxEntries = options.maxEntries ?? 10_000;
  const now = options.now ?? Date.now;
  const entries = new Map<string, { at: number; link: Promise<HopLink | undefined> }>();

  return {
    get(slug: string): Promise<HopLink | undefined> {
      const known = entries.get(slug);
      if (known && now() - known.at < ttlMs) return known.link;
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      const link = options.load(slug);
      entries.set(slug, { at: now(), link });
      // A failed read is not remembered.
      link.catch(() => entries.delete(slug));
      return link;
    },
    forget(...slugs: (string | undefined)[]): void {
      for (const slug of slugs) if (slug) entries.delete(slug);
    },
  };
}

export type LinkCache = ReturnType<typeof createLinkCache>;
