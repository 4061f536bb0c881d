import type { AccountProfile, ProfileInput, SessionInfo } from '@ecoa/shared';
import { ApiError, apiRequest, buildUrl, sessionToken } from '../../platform/api';

/** Sends the picture as multipart (`file`), answering like `apiRequest` (a 401 signs out). */
async function putPicture(file: Blob): Promise<AccountProfile> {
  const form = new FormData();
  form.append('file', file, 'picture');
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = sessionToken.get();
  if (token) headers.Authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(buildUrl('/api/v1/me/avatar'), { method: 'PUT', headers, body: form });
  } catch {
    throw new ApiError(0, 'Network error', 'NETWORK_ERROR');
  }
  if (response.status === 401) sessionToken.set(null);
  const data = (await response.json().catch(() => undefined)) as
    | (Partial<AccountProfile> & { message?: string; code?: string })
    | undefined;
  if (!response.ok) throw new ApiError(response.status, data?.message || response.statusText, data?.code);
  return data as AccountProfile;
}

export const settingsApi = {
  profile: () => apiRequest<AccountProfile>('/api/v1/me/profile'),
  updateProfile: (input: ProfileInput) =>
    apiRequest<AccountProfile>('/api/v1/me/profile', { method: 'PATCH', body: input }),
  uploadPicture: putPicture,
  removePicture: () => apiRequest<AccountProfile>('/api/v1/me/avatar', { method: 'DELETE' }),
  sessions: () => apiRequest<{ items: SessionInfo[] }>('/api/v1/me/sessions'),
  endSession: (id: string) => apiRequest<{ current: boolean }>(`/api/v1/me/sessions/${id}`, { method: 'DELETE' }),
  endAllSessions: () => apiRequest<{ ended: number }>('/api/v1/me/sessions', { method: 'DELETE' }),
};
