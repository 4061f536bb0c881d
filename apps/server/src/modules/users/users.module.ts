/**
 * The users module as the composition root wires it. Not exported from its index (see there: the
 * service needs the auth index, whose tables need this module's); `modules/index.ts` imports it here.
 * Users and auth need each other: sign-in returns the user's public shape, deactivation ends the
 * sessions; `auth` is asked for lazily, once both exist.
 */
import type { Clock } from '../../platform/clock/clock.ts';
import type { DbHandle } from '../../platform/db/client.ts';
import type { RegisterRoutes } from '../../platform/http/module-routes.ts';
import type { Logger } from '../../platform/logger.ts';
import type { AuthService } from '../auth/index.ts';
import type { LedgerService } from '../ledger/index.ts';
import { createUsersRepository } from './users.repository.ts';
import { registerUsersRoutes } from './users.routes.ts';
import { createUsersService, type UsersService } from './users.service.ts';

export type UsersModule = { service: UsersService; registerRoutes: RegisterRoutes };

export function createUsersModule(deps: {
  db: DbHandle;
  clock: Clock;
  logger: Logger;
  publicUrl: string;
  ledger: LedgerService;
  auth: () => AuthService;
}): UsersModule {
  const { ledger, auth } = deps;
  const service = createUsersService({
    db: deps.db.db,
    repo: createUsersRepository(deps.db.db),
    clock: deps.clock,
    logger: deps.logger,
    publicUrl: deps.publicUrl,
    getMoneyBalanceCentavos: ledger.getMoneyBalanceCentavos,
    // In the sign-up transaction: the account and its welcome bonus exist together or not at all.
    onUserCreated: async (user, tx) => {
      await ledger.grantWelcomeBonus(user.id, { tx });
    },
    endAllSessions: (userId, tx) => auth().endAllSessions(userId, tx),
    allowSignup: (meta) => auth().allowSignup(meta),
    authenticateWith: (token, lookup) => auth().authenticateWith(token, lookup),
  });
  return { service, registerRoutes: (app) => registerUsersRoutes(app, { users: service }) };
}
