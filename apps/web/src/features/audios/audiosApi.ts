import type { Audio, Page } from '@ecoa/shared';
import { apiRequest } from '../../platform/api';
import { fetchFile } from '../../platform/download';
import { sendForm } from '../../platform/form-upload';

export const audiosApi = {
  list: (page: number, pageSize = 20, q = '') =>
    apiRequest<Page<Audio>>('/api/v1/audios', { query: { page, pageSize, ...(q ? { q } : {}) } }),
  get: (id: string) => apiRequest<Audio>(`/api/v1/audios/${id}`),
  rename: (id: string, name: string) => apiRequest<Audio>(`/api/v1/audios/${id}`, { method: 'PATCH', body: { name } }),
  remove: (id: string) => apiRequest<void>(`/api/v1/audios/${id}`, { method: 'DELETE' }),

  upload(
    input: { file: File; name: string },
    onProgress?: (fraction: number) => void,
    signal?: AbortSignal,
  ): Promise<Audio> {
    const form = new FormData();
    form.append('name', input.name);
    form.append('file', input.file, input.file.name);
    return sendForm<Audio>('/api/v1/audios', form, onProgress, signal);
  },

  /**
   * The audio's bytes, fetched with the session token (an `<audio src>` cannot send it), as a
   * Blob the player plays through an object URL; the server's Content-Type comes with it.
   */
  async file(id: string, signal?: AbortSignal): Promise<Blob> {
    return (await fetchFile(`/api/v1/audios/${id}/file`, { signal })).blob();
  },
};
