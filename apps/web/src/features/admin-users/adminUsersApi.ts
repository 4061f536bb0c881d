import type { AccessLevel } from '@ecoa/shared';
import { apiRequest } from '../../platform/api';
import type { PriceTable } from '../auth/types';

/** A row of `GET /api/v1/admin/users` (money and prices in reais). */
export type AdminUser = {
  id: string;
  name: string;
  fullName: string;
  email: string;
  cnpj: string;
  mobilePhone: string;
  createdAt: string;
  active: boolean;
  accessLevel: AccessLevel;
  isNewUser: boolean;
  balance: { money: number };
  priceTable: PriceTable;
  permissions: { enriched: string[] };
};

/** One administrative change: field → {from, to}, fields in the API's words (`priceTable.smsShort`). */
export type AuditEntry = {
  id: string;
  action: string;
  changes: Record<string, { from?: unknown; to?: unknown }>;
  createdAt: string;
  actor: { id: string; name: string; email: string };
};

export type AdminUserDetail = AdminUser & { history: AuditEntry[] };

export type AdminUserPatch = {
  active?: boolean;
  accessLevel?: AccessLevel;
  priceTable?: Partial<PriceTable>;
  permissions?: { enriched: string[] };
};

export type AdminUsersPage = { items: AdminUser[]; total: number; page: number; pageSize: number };

/** Query keys: every admin-users query starts with this, so one invalidation refreshes them all. */
export const ADMIN_USERS_KEY = ['admin-users'] as const;

export const adminUsersApi = {
  list: (params: { search: string; page: number; pageSize: number }, signal?: AbortSignal) =>
    apiRequest<AdminUsersPage>('/api/v1/admin/users', { query: params, signal }),
  get: (id: string, signal?: AbortSignal) => apiRequest<AdminUserDetail>(`/api/v1/admin/users/${id}`, { signal }),
  update: (id: string, patch: AdminUserPatch) =>
    apiRequest<AdminUser>(`/api/v1/admin/users/${id}`, { method: 'PATCH', body: patch }),
};
