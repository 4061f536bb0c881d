import type { RepliesFilter, RepliesPage, Reply } from '@ecoa/shared';
import { apiRequest } from '../../platform/api';
import { downloadFile } from '../../platform/download';

/** The filters without their empty values, as query parameters. */
const clean = (filter: RepliesFilter): Record<string, string> =>
  Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined && v !== '')) as Record<string, string>;

export const repliesApi = {
  page: (filter: RepliesFilter, cursor: string | null, limit = 50) =>
    apiRequest<RepliesPage>('/api/v1/replies', {
      query: { ...clean(filter), limit, ...(cursor ? { cursor } : {}) },
    }),
  setHandled: (id: string, handled: boolean) =>
    apiRequest<Reply>(`/api/v1/replies/${id}`, { method: 'PATCH', body: { handled } }),
  answer: (id: string, text: string, idempotencyKey: string) =>
    apiRequest<{ id: string }>(`/api/v1/replies/${id}/answer`, {
      method: 'POST',
      body: { text },
      headers: { 'Idempotency-Key': idempotencyKey },
    }),
  exportCsv: (filter: RepliesFilter) => downloadFile('/api/v1/replies.csv', clean(filter), 'respostas.csv'),
};
