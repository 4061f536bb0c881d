import { type adminUserPatchSchema, PRICE_TABLE_FIELDS, tenThousandthsToReais } from '@ecoa/shared';
import type { z } from 'zod';
import type { Database, DbOrTx } from '../../platform/db/client.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import type { Logger } from '../../platform/logger.ts';
import type { AuditChanges, AuditEntry, AuditRepository } from '../audit/index.ts';
import { PRICE_COLUMNS, type UserRow } from '../users/index.ts';
import type { AdminUsersRepository, UserPatch } from './admin-users.repository.ts';

/** The validated PATCH: unit prices already in ten-thousandths of a real (the shared schema converts them exactly). */
export type AdminUserPatchInput = z.output<typeof adminUserPatchSchema>;

/** A user as administrators see it: the row and its money balance. */
export type AdminUserView = { row: UserRow; moneyCentavos: number };

export type AdminUsersDeps = {
  db: Database;
  repo: AdminUsersRepository;
  audit: AuditRepository;
  logger: Logger;
  /** Ends every session of a user and voids their live code, on the given handle (the auth module's). */
  endAllSessions: (db: DbOrTx, userId: string) => Promise<unknown>;
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

  async function withBalance(row: UserRow): Promise<AdminUserView> {
    const balances = await deps.moneyBalances([row.id]);
    return { row, moneyCentavos: balances.get(row.id) ?? 0 };
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
      const { rows, total } = await repo.search(db, params);
      const balances = await deps.moneyBalances(rows.map((r) => r.id));
      const items: AdminUserView[] = rows.map((row) => ({ row, moneyCentavos: balances.get(row.id) ?? 0 }));
      return { items, total };
    },

    /** One user with the history of administrative changes, newest first. */
    async get(id: string): Promise<AdminUserView & { history: AuditEntry[] }> {
      const row = await repo.findById(db, id);
      if (!row) throw new AppError('USER_NOT_FOUND');
      const view = await withBalance(row);
      return { ...view, history: await audit.listFor(db, SUBJECT, id) };
    },

    /**
     * Applies an administrator's change. An administrator can neither deactivate nor demote
     * themself (the product would lose its last way in). Deactivation ends every session of the
     * user in the same transaction. A change to nothing records nothing.
     */
    async update(actorId: string, id: string, input: AdminUserPatchInput): Promise<AdminUserView> {
      if (id === actorId && input.active === false) {
        throw new AppError('CANNOT_DEACTIVATE_SELF');
      }
      if (id === actorId && input.accessLevel !== undefined && input.accessLevel !== 'ADMINISTRATOR') {
        throw new AppError('CANNOT_DEMOTE_SELF');
      }
      const { row, changes } = await db.transaction(async (tx) => {
        const before = await repo.lockById(tx, id);
        if (!before) throw new AppError('USER_NOT_FOUND');
        const { patch, changes } = diff(before, input);
        if (Object.keys(changes).length === 0) return { row: before, changes };
        const after = await repo.update(tx, id, patch);
        await audit.record(tx, { actorId, subjectType: SUBJECT, subjectId: id, action: 'update', changes });
        if (before.active && !after.active) await deps.endAllSessions(tx, id);
        return { row: after, changes };
      });
      if (Object.keys(changes).length > 0)
        log.info({ actorId, userId: id, fields: Object.keys(changes) }, 'user changed');
      return withBalance(row);
    },
  };
}
export type AdminUsersService = ReturnType<typeof createAdminUsersService>;
