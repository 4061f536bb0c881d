/** Sign-in as the composition root wires it: repository, service, the guard every route names, routes. */
import type { PublicUser } from '@ecoa/shared';
import { type ApiKeyVerifier, type AuthGuard, createAuthGuard } from '../../platform/auth/guard.ts';
import type { Clock } from '../../platform/clock/clock.ts';
import type { DbHandle } from '../../platform/db/client.ts';
import type { RegisterRoutes } from '../../platform/http/module-routes.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import { createAuthRepository } from './auth.repository.ts';
import { registerAuthRoutes } from './auth.routes.ts';
import { type AuthService, createAuthService } from './auth.service.ts';

export type AuthModule = { service: AuthService; guard: AuthGuard; registerRoutes: RegisterRoutes };

export function createAuthModule(deps: {
  db: DbHandle;
  mailer: Mailer;
  clock: Clock;
  /** Keys the login codes' hashes. */
  secret: string;
  logger: Logger;
  loadUser: (userId: string) => Promise<PublicUser>;
  /** API keys (the api-keys module): the guard lets them through on `requireScope` routes. */
  apiKeys?: ApiKeyVerifier;
}): AuthModule {
  const service = createAuthService({
    repo: createAuthRepository(deps.db.db),
    mailer: deps.mailer,
    clock: deps.clock,
    secret: deps.secret,
    logger: deps.logger,
    loadUser: deps.loadUser,
  });
  const guard = createAuthGuard({ sessions: service, apiKeys: deps.apiKeys, clock: deps.clock });
  return { service, guard, registerRoutes: (app) => registerAuthRoutes(app, { auth: service }) };
}
