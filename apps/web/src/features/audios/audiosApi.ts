import type { Audio, Page } from '@ecoa/shared';
import { ApiError, apiRequest, buildUrl, sessionToken } from '../../platform/api';
import { sendForm } from '../../platform/form-upload';

/** Parses an answer like `apiRequest`: the JSON, or an ApiError with the server's code. */
function settle<T>(status: number, statusText: string, text: string): T {
  if (status === 401) sessionToken.set(null);
  let data: { message?: string; code?: string; details?: Record<string, unknown> } | undefined;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = undefined;
  }
  if (status >= 200 && status < 300) return data as T;
  throw new ApiError(status, data?.message || statusText, data?.code, data?.details);
}

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
    const token = sessionToken.get();
    let res: Response;
    try {
      res = await fetch(buildUrl(`/api/v1/audios/${id}/file`), {
        headers: token ? { Authorization: `Bearer ${token}` } : {},
        signal,
      });
    } catch (err) {
      if ((err as Error)?.name === 'AbortError') throw err;
      throw new ApiError(0, 'Network error', 'NETWORK_ERROR');
    }
    if (!res.ok) settle(res.status, res.statusText, await res.text());
    return res.blob();
  },
};
