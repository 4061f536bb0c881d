import {
  type AdminUser,
  type AdminUserDetail,
  type adminUserPatchSchema,
  PRICE_TABLE_FIELDS,
  tenThousandthsToReais,
} from '@ecoa/shared';
import type { z } from 'zod';
import type { Database, DbOrTx } from '../../platform/db/client.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import type { Logger } from '../../platform/logger.ts';
import type { AuditChanges, AuditRepository } from '../audit/index.ts';
import { PRICE_COLUMNS, type UserRow } from '../users/index.ts';
import { toAdminUser, toAdminUserDetail } from './admin-users.mappers.ts';
import type { AdminUsersRepository, UserPatch } from './admin-users.repository.ts';

/** The validated PATCH: unit prices already in ten-thousandths of a real (the shared schema converts them exactly). */
export type AdminUserPatchInput = z.output<typeof adminUserPatchSchema>;

export type AdminUsersDeps = {
  db: Database;
  repo: AdminUsersRepository;
  audit: AuditRepository;
  logger: Logger;
  /** Ends every session of a user and voids their live code, in the given transaction (the auth module's). */
  endAllSessions: (userId: string, tx: DbOrTx) => Promise<unknown>;
  /** Revokes every API key of a user, in the given transaction (the api-keys module's). */
  revokeAllApiKeys: (userId: string, tx: DbOrTx) => Promise<unknown>;
  /** Money balances in centavos for some users (the ledger's; a user without one is absent or 0). */
  moneyBalances: (userIds: string[]) => Promise<Map<string, number>>;
};

/** The audit subject of this module's changes. */
const SUBJECT = 'user';

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Administration of accounts: search, read with the audit history, and change the active flag,
 * access level, price table and enrichment permission. Every change is recorded in the audit log
 * in the API's own words (`priceTable.smsShort` in reais), in the same transaction as the change.
 */
export function createAdminUsersService(deps: AdminUsersDeps) {
  const { db, repo, audit } = deps;
  const log = deps.logger.child({ module: 'admin-users' });

  async function moneyOf(row: UserRow): Promise<number> {
    return (await deps.moneyBalances([row.id])).get(row.id) ?? 0;
  }

  /** What `input` changes on `before`: the columns to write and the audit entry, field by field. */
  function diff(before: UserRow, input: AdminUserPatchInput) {
    const patch: Record<string, unknown> = {};
    const changes: AuditChanges = {};
    const set = <C extends keyof UserPatch>(column: C, field: string, to: UserRow[C], show = (v: unknown) => v) => {
      if (sameValue(before[column], to)) return;
      patch[column] = to;
      changes[field] = { from: show(before[column]), to: show(to) };
    };
    if (input.active !== undefined) set('active', 'active', input.active);
    if (input.accessLevel !== undefined) set('accessLevel', 'accessLevel', input.accessLevel);
    for (const key of PRICE_TABLE_FIELDS) {
      const value = input.priceTable?.[key];
      if (value !== undefined)
        set(PRICE_COLUMNS[key], `priceTable.${key}`, value, (v) => tenThousandthsToReais(v as number));
    }
    if (input.apiRatePerSecond !== undefined) set('apiRatePerSecond', 'apiRatePerSecond', input.apiRatePerSecond);
    if (input.permissions) {
      const enriched = [...new Set(input.permissions.enriched)].sort();
      if (!sameValue([...before.permissionsEnriched].sort(), enriched))
        set('permissionsEnriched', 'permissions.enriched', enriched);
    }
    return { patch: patch as UserPatch, changes };
  }

  return {
    /** A page of users (search over company, full name, e-mail, CNPJ) with their money balances. */
    async list(params: { search: string; page: number; pageSize: number }) {
      const { rows, total } = await repo.search(params);
      const balances = await deps.moneyBalances(rows.map((r) => r.id));
      return { items: rows.map((row) => toAdminUser(row, balances.get(row.id) ?? 0)), total };
    },

    /** One user with the history of administrative changes, newest first. */
    async get(id: string): Promise<AdminUserDetail> {
      const row = await repo.findById(id);
      if (!row) throw new AppError('USER_NOT_FOUND');
      return toAdminUserDetail(row, await moneyOf(row), await audit.listFor(SUBJECT, id));
    },

    /**
     * Applies an administrator's change. An administrator can neither deactivate nor demote
     * themself (the product would lose its last way in). Deactivation ends every session of the
     * user in the same transaction. A change to nothing records nothing.
     */
    async update(actorId: string, id: string, input: AdminUserPatchInput): Promise<AdminUser> {
      if (id === actorId && input.active === false) {
        throw new AppError('CANNOT_DEACTIVATE_SELF');
      }
      if (id === actorId && input.accessLevel !== undefined && input.accessLevel !== 'ADMINISTRATOR') {
        throw new AppError('CANNOT_DEMOTE_SELF');
      }
      const { row, changes } = await db.transaction(async (tx) => {
        const before = await repo.lockById(id, tx);
        if (!before) throw new AppError('USER_NOT_FOUND');
        const { patch, changes } = diff(before, input);
        if (Object.keys(changes).length === 0) return { row: before, changes };
        const after = await repo.update(id, patch, tx);
        await audit.record({ actorId, subjectType: SUBJECT, subjectId: id, action: 'update', changes }, tx);
        if (before.active && !after.active) {
          await deps.endAllSessions(id, tx);
          await deps.revokeAllApiKeys(id, tx);
        }
        return { row: after, changes };
      });
      if (Object.keys(changes).length > 0)
        log.info({ actorId, userId: id, fields: Object.keys(changes) }, 'user changed');
      return toAdminUser(row, await moneyOf(row));
    },
  };
}
export type AdminUsersService = ReturnType<typeof createAdminUsersService>;
