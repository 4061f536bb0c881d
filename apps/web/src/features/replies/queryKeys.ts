import type { RepliesFilter } from '@ecoa/shared';

/** The replies inbox. `all` starts every key (a mark or an answer refreshes them all). */
export const repliesKeys = {
  all: ['replies'] as const,
  list: (filter: RepliesFilter) => ['replies', 'list', filter] as const,
  campaigns: ['replies', 'campaigns'] as const,
};
