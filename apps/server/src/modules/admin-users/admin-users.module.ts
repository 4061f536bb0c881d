/**
 * User administration as the composition root wires it: every change is audited; deactivation
 * ends the user's sessions and API keys at once.
 */
import type { DbHandle } from '../../platform/db/client.ts';
import type { RegisterRoutes } from '../../platform/http/module-routes.ts';
import type { Logger } from '../../platform/logger.ts';
import type { ApiKeysService } from '../api-keys/index.ts';
import type { AuditRepository } from '../audit/index.ts';
import type { AuthService } from '../auth/index.ts';
import type { LedgerService } from '../ledger/index.ts';
import { createAdminUsersRepository } from './admin-users.repository.ts';
import { registerAdminUsersRoutes } from './admin-users.routes.ts';
import { type AdminUsersService, createAdminUsersService } from './admin-users.service.ts';

export type AdminUsersModule = { service: AdminUsersService; registerRoutes: RegisterRoutes };

export function createAdminUsersModule(deps: {
  db: DbHandle;
  audit: AuditRepository;
  sessions: AuthService;
  apiKeys: ApiKeysService;
  ledger: LedgerService;
  logger: Logger;
}): AdminUsersModule {
  const { sessions } = deps;
  const service = createAdminUsersService({
    db: deps.db.db,
    repo: createAdminUsersRepository(deps.db.db),
    audit: deps.audit,
    logger: deps.logger,
    endAllSessions: (userId, tx) => sessions.endAllSessions(userId, tx),
    revokeAllApiKeys: (userId, tx) => deps.apiKeys.revokeAll(userId, tx),
    // A page's balances in one query.
    moneyBalances: deps.ledger.getMoneyBalancesCentavos,
  });
  return { service, registerRoutes: (app, guard) => registerAdminUsersRoutes(app, { service, guard }) };
}
