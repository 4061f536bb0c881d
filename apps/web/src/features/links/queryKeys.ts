/** Rotating links. `all` starts every user's-links key, `admin` every administrators' one. */
export const linksKeys = {
  all: ['links'] as const,
  search: (q: string, page: number) => ['links', q, page] as const,
  picker: {
    search: (q: string) => ['links', 'picker', q] as const,
    one: (id: string) => ['links', 'picker-one', id] as const,
  },
  stats: (linkId: string, days: string, bucket: string) => ['link-stats', linkId, days, bucket] as const,
  admin: ['admin-links'] as const,
  adminPage: (kind: 'rotating' | 'tracked', q: string, page: number) => ['admin-links', kind, q, page] as const,
};
