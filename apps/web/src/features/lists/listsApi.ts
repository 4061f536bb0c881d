import type { ColumnMapping, ContactList, ListContact, ListPreview, OptOut, OptOutSummary, Page } from '@ecoa/shared';
import { apiRequest } from '../../platform/api';
import { downloadFile } from '../../platform/download';
import { sendForm } from '../../platform/form-upload';

/** A big CSV is previewed from its first megabyte; an XLSX (a ZIP) must be sent whole. */
const PREVIEW_SLICE = 1024 * 1024;

async function isZip(file: File): Promise<boolean> {
  const head = new Uint8Array(await file.slice(0, 2).arrayBuffer());
  return head[0] === 0x50 && head[1] === 0x4b;
}

export const listsApi = {
  list: (page: number, pageSize = 20, q = '') =>
    apiRequest<Page<ContactList>>('/api/v1/lists', { query: { page, pageSize, ...(q ? { q } : {}) } }),
  get: (id: string) => apiRequest<ContactList>(`/api/v1/lists/${id}`),
  contacts: (id: string, page: number, pageSize = 50) =>
    apiRequest<Page<ListContact>>(`/api/v1/lists/${id}/contacts`, { query: { page, pageSize } }),
  rename: (id: string, name: string) =>
    apiRequest<ContactList>(`/api/v1/lists/${id}`, { method: 'PATCH', body: { name } }),
  remove: (id: string) => apiRequest<void>(`/api/v1/lists/${id}`, { method: 'DELETE' }),

  async preview(file: File): Promise<ListPreview> {
    const form = new FormData();
    const partial = file.size > PREVIEW_SLICE && !(await isZip(file));
    form.append('partial', String(partial));
    form.append('file', partial ? file.slice(0, PREVIEW_SLICE) : file, file.name);
    return sendForm<ListPreview>('/api/v1/lists/preview', form);
  },

  create(
    input: { file: File; name: string; mapping: ColumnMapping | null },
    onProgress?: (f: number) => void,
    signal?: AbortSignal,
  ) {
    const form = new FormData();
    form.append('name', input.name);
    if (input.mapping) form.append('mapping', JSON.stringify(input.mapping));
    form.append('file', input.file, input.file.name);
    return sendForm<{ id: string }>('/api/v1/lists', form, onProgress, signal);
  },

  /** Downloads an export with the session token, then hands the file to the browser. */
  download: (id: string, kind: 'valid' | 'invalid') =>
    downloadFile(`/api/v1/lists/${id}/export`, { kind }, `lista-${kind}.csv`),
};

export const optOutsApi = {
  list: (search: string, page: number, pageSize = 20) =>
    apiRequest<Page<OptOut>>('/api/v1/opt-outs', { query: { search: search || undefined, page, pageSize } }),
  add: (phones: string[]) => apiRequest<OptOutSummary>('/api/v1/opt-outs', { method: 'POST', body: { phones } }),
  upload(file: File) {
    const form = new FormData();
    form.append('file', file, file.name);
    return sendForm<OptOutSummary>('/api/v1/opt-outs/upload', form);
  },
  remove: (phone: string) => apiRequest<void>(`/api/v1/opt-outs/${encodeURIComponent(phone)}`, { method: 'DELETE' }),
};
