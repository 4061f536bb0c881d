import type { AccessLevel, PriceTableKey } from '@ecoa/shared';
import type { Database } from '../../platform/db/client.ts';
import { AppError, notFound } from '../../platform/errors/app-error.ts';
import type { AuditChanges, AuditRepository } from '../audit/audit.repository.ts';
import type { UserRow } from '../users/users.schema.ts';
import type { AdminUsersRepository, UserPatch } from './admin-users.repository.ts';

/** Price-table keys of the API → the users table columns (integers in ten-thousandths of a real). */
const PRICE_COLUMNS: Record<PriceTableKey, keyof UserPatch & keyof UserRow> = {
  smsShort: 'priceSmsShort',
  smsFlash: 'priceSmsFlash',
  whatsapp: 'priceWhatsapp',
  ura: 'priceUra',
  rcs: 'priceRcs',
  uraIntegration: 'priceUraIntegration',
  enriched: 'priceEnriched',
};

export type AdminUserPatchInput = {
  active?: boolean;
  accessLevel?: AccessLevel;
  /** Unit prices in ten-thousandths of a real (already converted and validated by the route). */
  priceTable?: Partial<Record<PriceTableKey, number>>;
  permissions?: { enriched: string[] };
};

export type AdminUsersDeps = {
  db: Database;
  repo: AdminUsersRepository;
  audit: AuditRepository;
  /** Ends every session of a user (deactivation signs them out everywhere). */
  revokeAllSessions: (db: Database, userId: string) => Promise<void>;
  /** Money balances in centavos for a page of users (the ledger's; 0 when it has none). */
  moneyBalances: (userIds: string[]) => Promise<Map<string, number>>;
};

export function createAdminUsersService(deps: AdminUsersDeps) {
  const { db, repo, audit } = deps;

  return {
    async list(params: { search: string; page: number; pageSize: number }) {
      const { rows, total } = await repo.search(db, params);
      const balances = await deps.moneyBalances(rows.map((r) => r.id));
      return { rows: rows.map((row) => ({ row, moneyCentavos: balances.get(row.id) ?? 0 })), total };
    },

    async get(id: string) {
      const row = await repo.findById(db, id);
      if (!row) throw notFound('USER_NOT_FOUND', 'Usuário não encontrado.');
      const balances = await deps.moneyBalances([id]);
      const history = await audit.listFor(db, 'user', id);
      return { row, moneyCentavos: balances.get(id) ?? 0, history };
    },

    /** Applies an administrator's change, records what changed, and ends sessions on deactivation. */
    async update(actorId: string, id: string, input: AdminUserPatchInput) {
      if (id === actorId && input.active === false) {
        throw new AppError('CANNOT_DEACTIVATE_SELF', 400, 'Você não pode desativar a sua própria conta.');
      }
      if (id === actorId && input.accessLevel && input.accessLevel !== 'ADMINISTRATOR') {
        throw new AppError('CANNOT_DEMOTE_SELF', 400, 'Você não pode remover o seu próprio acesso de administrador.');
      }
      return db.transaction(async (tx) => {
        const before = await repo.findById(tx, id);
        if (!before) throw notFound('USER_NOT_FOUND', 'Usuário não encontrado.');

        const patch: UserPatch = {};
        if (input.active !== undefined) patch.active = input.active;
        if (input.accessLevel !== undefined) patch.accessLevel = input.accessLevel;
        if (input.permissions) patch.permissionsEnriched = [...new Set(input.permissions.enriched)];
        for (const [key, value] of Object.entries(input.priceTable ?? {})) {
          const column = PRICE_COLUMNS[key as PriceTableKey];
          if (column && value !== undefined) (patch as Record<string, unknown>)[column] = value;
        }

        const changes: AuditChanges = {};
        for (const [field, to] of Object.entries(patch)) {
          const from = before[field as keyof UserRow];
          if (JSON.stringify(from) !== JSON.stringify(to)) changes[field] = { from, to };
        }
        if (Object.keys(changes).length === 0) return before;

        const after = await repo.update(tx, id, patch);
        await audit.record(tx, { actorId, subjectType: 'user', subjectId: id, action: 'update', changes });
        if (before.active && after.active === false) await deps.revokeAllSessions(tx as unknown as Database, id);
        return after;
      });
    },
  };
}
export type AdminUsersService = ReturnType<typeof createAdminUsersService>;
