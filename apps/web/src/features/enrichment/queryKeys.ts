/** Enrichments. `all` starts every page of the user's enrichments. */
export const enrichmentKeys = {
  base: ['enrichment-base'] as const,
  cnpjBase: ['cnpj-base'] as const,
  all: ['enrichments'] as const,
  page: (page: number) => ['enrichments', page] as const,
  detail: (id: string, admin: boolean) => ['enrichment', id, admin] as const,
  results: (id: string, admin: boolean, page: number, filter: string) =>
    ['enrichment-results', id, admin, page, filter] as const,
  admin: (userId: string | null, from: string, to: string, page: number) =>
    ['admin-enrichments', userId, from, to, page] as const,
};
