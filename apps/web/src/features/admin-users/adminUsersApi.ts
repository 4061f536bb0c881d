import type { AdminUser, AdminUserDetail, AdminUserPatch, Page } from '@ecoa/shared';
import { apiRequest } from '../../platform/api';

/** Query keys: every admin-users query starts with this, so one invalidation refreshes them all. */

export const adminUsersApi = {
  list: (params: { search: string; page: number; pageSize: number }, signal?: AbortSignal) =>
    apiRequest<Page<AdminUser>>('/api/v1/admin/users', { query: params, signal }),
  get: (id: string, signal?: AbortSignal) => apiRequest<AdminUserDetail>(`/api/v1/admin/users/${id}`, { signal }),
  update: (id: string, patch: AdminUserPatch) =>
    apiRequest<AdminUser>(`/api/v1/admin/users/${id}`, { method: 'PATCH', body: patch }),
};
