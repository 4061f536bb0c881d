/** The administrators' users: `all` starts every key below, `lists` every page of the table. */
export const adminUsersKeys = {
  all: ['admin-users'] as const,
  lists: ['admin-users', 'list'] as const,
  list: (search: string, page: number) => ['admin-users', 'list', search, page] as const,
  detail: (userId: string | null) => ['admin-users', 'detail', userId] as const,
  /** The user filter of other administrators' pages (enrichments per user). */
  filter: (search: string) => ['admin-users', 'filter', search] as const,
};
