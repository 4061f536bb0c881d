/**
 * The campaigns' query keys. A key that starts another (`all` before `list`) invalidates it too:
 * `all` refreshes every list, `estimates` every open wizard's estimate.
 */
export const campaignsKeys = {
  all: ['campaigns'] as const,
  list: (scope: 'all' | 'mine', query: object) => ['campaigns', scope, query] as const,
  detail: (id: string) => ['campaign', id] as const,
  messages: (id: string) => ['campaign-messages', id] as const,
  messagesPage: (id: string, query: object) => ['campaign-messages', id, query] as const,
  timeline: (id: string) => ['campaign-timeline', id] as const,
  draft: (id: string | null) => ['campaign-draft', id] as const,
  estimates: ['campaign-estimate'] as const,
  estimate: (draftId: string | null, saved: number) => ['campaign-estimate', draftId, saved] as const,
  dashboardSummary: ['dashboard-summary'] as const,
};
