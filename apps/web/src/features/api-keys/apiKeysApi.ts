import type { ApiKey, ApiKeyCreated, CreateApiKeyInput } from '@ecoa/shared';
import { apiRequest } from '../../platform/api';

/** `/api/v1/api-keys`: the signed-in user's keys (a session's; a key cannot call these). */
export const apiKeysApi = {
  list: () => apiRequest<{ items: ApiKey[] }>('/api/v1/api-keys'),
  create: (input: CreateApiKeyInput) => apiRequest<ApiKeyCreated>('/api/v1/api-keys', { method: 'POST', body: input }),
  revoke: (id: string) => apiRequest<void>(`/api/v1/api-keys/${id}`, { method: 'DELETE' }),
};
