import type {
  Campaign,
  CampaignEstimate,
  CampaignList,
  CampaignMessages,
  CampaignTimeline,
  CreateCampaignRequest,
  DashboardSummary,
  StartCampaignRequest,
  UpdateCampaignRequest,
} from '@ecoa/shared';
import { api } from '../../platform/api';
import { downloadFile } from '../../platform/download';

export type CampaignMove = 'pause' | 'resume' | 'cancel';
export type ListQuery = {
  status?: string;
  channel?: string;
  q?: string;
  page: number;
  pageSize?: number;
  userId?: string;
};

/** The query without its empty filters. */
const clean = (q: Record<string, string | number | undefined>) =>
  Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined && v !== '')) as Record<
    string,
    string | number
  >;

export const campaignsApi = {
  list: (q: ListQuery) => api.get<CampaignList>('/api/v1/campaigns', { query: clean(q) }),
  listAll: (q: ListQuery) => api.get<CampaignList>('/api/v1/admin/campaigns', { query: clean(q) }),
  get: (id: string) => api.get<Campaign>(`/api/v1/campaigns/${id}`),
  create: (body: CreateCampaignRequest) => api.post<{ id: string; status: 'DRAFT' }>('/api/v1/campaigns', body),
  update: (id: string, body: UpdateCampaignRequest) => api.patch<Campaign>(`/api/v1/campaigns/${id}`, body),
  estimate: (id: string) => api.get<CampaignEstimate>(`/api/v1/campaigns/${id}/estimate`),
  /** The wizard's start, with what the user chose (now, or the schedule). */
  start: (id: string, choice: StartCampaignRequest) =>
    api.post<Campaign>(`/api/v1/campaigns/${id}/start`, choice ?? {}),
  move: (id: string, move: CampaignMove) => api.post<Campaign>(`/api/v1/campaigns/${id}/${move}`, {}),
  adminMove: (id: string, move: 'pause' | 'cancel') => api.post<Campaign>(`/api/v1/admin/campaigns/${id}/${move}`, {}),
  duplicate: (id: string) => api.post<{ id: string; status: 'DRAFT' }>(`/api/v1/campaigns/${id}/duplicate`, {}),
  messages: (id: string, q: { status?: string; q?: string; clicked?: boolean; page: number; pageSize?: number }) =>
    api.get<CampaignMessages>(`/api/v1/campaigns/${id}/messages`, {
      query: clean({ ...q, clicked: q.clicked === undefined ? undefined : String(q.clicked) }),
    }),
  timeline: (id: string) => api.get<CampaignTimeline>(`/api/v1/campaigns/${id}/timeline`),
  export: (id: string) => downloadFile(`/api/v1/campaigns/${id}/export`, {}, 'campanha.csv'),
  dashboard: () => api.get<DashboardSummary>('/api/v1/dashboard/summary'),
};
