import type {
  AdminEnrichmentList,
  CnpjBaseInfo,
  CreateEnrichmentRequest,
  Enrichment,
  EnrichmentList,
  EnrichmentResults,
} from '@ecoa/shared';
import { apiRequest } from '../../platform/api';
import { downloadFile } from '../../platform/download';
import { sendForm } from '../../platform/form-upload';

/** `/api/v1/enrichments` (the user's) and the administrators' `/api/v1/admin/enrichments`, `/api/v1/admin/cnpj-base`. */
export const enrichmentApi = {
  base: () => apiRequest<{ referenceMonth: string | null }>('/api/v1/enrichments/base'),
  list: (page: number) => apiRequest<EnrichmentList>('/api/v1/enrichments', { query: { page, pageSize: 20 } }),
  get: (id: string, admin = false) =>
    apiRequest<Enrichment>(admin ? `/api/v1/admin/enrichments/${id}` : `/api/v1/enrichments/${id}`),
  results: (id: string, query: { page: number; found?: boolean }, admin = false) =>
    apiRequest<EnrichmentResults>(
      admin ? `/api/v1/admin/enrichments/${id}/results` : `/api/v1/enrichments/${id}/results`,
      {
        query: { page: query.page, pageSize: 50, ...(query.found === undefined ? {} : { found: String(query.found) }) },
      },
    ),
  createFromText: (input: CreateEnrichmentRequest) =>
    apiRequest<{ id: string }>('/api/v1/enrichments', { method: 'POST', body: input }),
  createFromFile(input: { file: File; name: string; onlyActive: boolean }, onProgress?: (f: number) => void) {
    const form = new FormData();
    form.append('name', input.name);
    form.append('onlyActive', String(input.onlyActive));
    form.append('file', input.file, input.file.name);
    return sendForm<{ id: string }>('/api/v1/enrichments', form, onProgress);
  },
  export: (e: Enrichment) => downloadFile(`/api/v1/enrichments/${e.id}/export`, {}, `${e.name}-enriquecido.csv`),
  toList: (id: string, body: { name: string; kinds: ('mobile' | 'landline')[] }) =>
    apiRequest<{ listId: string }>(`/api/v1/enrichments/${id}/list`, { method: 'POST', body }),
  adminList: (query: { page: number; userId?: string; from?: string; to?: string }) =>
    apiRequest<AdminEnrichmentList>('/api/v1/admin/enrichments', {
      query: Object.fromEntries(
        Object.entries({ ...query, pageSize: 20 }).filter(([, v]) => v !== undefined),
      ) as Record<string, string | number>,
    }),
  cnpjBase: () => apiRequest<CnpjBaseInfo>('/api/v1/admin/cnpj-base'),
  cnpjBaseImport: (folder: string) =>
    apiRequest<{ id: string }>('/api/v1/admin/cnpj-base/import', { method: 'POST', body: { folder } }),
};
