import {
  type AdminUser,
  type AdminUserDetail,
  centavosToReais,
  PRICE_TABLE_FIELDS,
  type PriceTableKey,
  tenThousandthsToReais,
} from '@ecoa/shared';
import type { AuditEntry } from '../audit/index.ts';
import { PRICE_COLUMNS, type UserRow } from '../users/index.ts';

/** A user row and its money balance, as the administrators' API shows them. */
export function toAdminUser(row: UserRow, moneyCentavos: number): AdminUser {
  return {
    id: row.id,
    name: row.name,
    fullName: row.fullName,
    email: row.email,
    cnpj: row.cnpj,
    mobilePhone: row.mobilePhone,
    createdAt: row.createdAt.toISOString(),
    active: row.active,
    accessLevel: row.accessLevel,
    isNewUser: row.isNewUser,
    balance: { money: centavosToReais(moneyCentavos) },
    priceTable: Object.fromEntries(
      PRICE_TABLE_FIELDS.map((k) => [k, tenThousandthsToReais(row[PRICE_COLUMNS[k]])]),
    ) as Record<PriceTableKey, number>,
    permissions: { enriched: [...row.permissionsEnriched] },
    apiRatePerSecond: row.apiRatePerSecond,
  };
}

/** One user with the audit history of administrative changes. */
export function toAdminUserDetail(row: UserRow, moneyCentavos: number, history: AuditEntry[]): AdminUserDetail {
  return {
    ...toAdminUser(row, moneyCentavos),
    history: history.map((h) => ({ ...h, createdAt: h.createdAt.toISOString() })),
  };
}
