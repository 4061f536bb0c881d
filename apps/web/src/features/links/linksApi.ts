import type {
  AdminTrackedLink,
  AdminTrackedLinkList,
  LinkInput,
  LinkPatch,
  LinkStats,
  RotatingLink,
  RotatingLinkList,
} from '@ecoa/shared';

/** A link in the administrators' list: with its owner. */
export type AdminLink = RotatingLink & { user: { id: string; name: string; email: string; company: string } };

import { apiRequest } from '../../platform/api';
import { downloadFile } from '../../platform/download';

/** `/api/v1/rotating-links`: the user's links, their stats and clicks. */
export const linksApi = {
  list: (q: string, page: number, pageSize = 20) =>
    apiRequest<RotatingLinkList>('/api/v1/rotating-links', { query: { page, pageSize, ...(q ? { q } : {}) } }),
  get: (id: string) => apiRequest<RotatingLink>(`/api/v1/rotating-links/${id}`),
  create: (input: LinkInput) => apiRequest<RotatingLink>('/api/v1/rotating-links', { method: 'POST', body: input }),
  update: (id: string, patch: LinkPatch) =>
    apiRequest<RotatingLink>(`/api/v1/rotating-links/${id}`, { method: 'PATCH', body: patch }),
  remove: (id: string) => apiRequest<void>(`/api/v1/rotating-links/${id}`, { method: 'DELETE' }),
  stats: (id: string, days: number, bucket: 'day' | 'hour' = 'day') =>
    apiRequest<LinkStats>(`/api/v1/rotating-links/${id}/stats`, {
      query: { from: new Date(Date.now() - days * 86_400_000).toISOString(), bucket },
    }),
  adminList: (q: string, page: number) =>
    apiRequest<{ items: AdminLink[]; total: number; page: number; pageSize: number }>('/api/v1/admin/links', {
      query: { page, pageSize: 20, ...(q ? { q } : {}) },
    }),
  adminSetDisabled: (id: string, disabled: boolean, reason?: string) =>
    apiRequest<RotatingLink>(`/api/v1/admin/links/${id}`, {
      method: 'PATCH',
      body: { disabled, ...(reason ? { reason } : {}) },
    }),
  adminTracked: (q: string, page: number) =>
    apiRequest<AdminTrackedLinkList>('/api/v1/admin/links/tracked', {
      query: { page, pageSize: 20, ...(q ? { q } : {}) },
    }),
  adminSetTrackedDisabled: (campaignId: string, disabled: boolean, reason?: string) =>
    apiRequest<AdminTrackedLink>(`/api/v1/admin/links/tracked/${campaignId}`, {
      method: 'PATCH',
      body: { disabled, ...(reason ? { reason } : {}) },
    }),
  exportClicks: (link: RotatingLink) =>
    downloadFile(`/api/v1/rotating-links/${link.id}/clicks/export`, {}, `cliques-${link.slug}.csv`),
};
