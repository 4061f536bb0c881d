/**
 * The user's own settings as the composition root wires them: profile, picture (DATA_DIR/avatars)
 * and sessions (the auth module's).
 */
import type { DbHandle } from '../../platform/db/client.ts';
import type { RegisterRoutes } from '../../platform/http/module-routes.ts';
import type { Logger } from '../../platform/logger.ts';
import type { AuthService } from '../auth/index.ts';
import { createAccountRepository } from './account.repository.ts';
import { registerAccountRoutes } from './account.routes.ts';
import { type AccountService, createAccountService, MAX_IMAGE_PIXELS } from './account.service.ts';
import { createAvatarStorage } from './avatar-storage.ts';
import { createProfileImages } from './profile-images.ts';

export type AccountModule = { service: AccountService; registerRoutes: RegisterRoutes };

export function createAccountModule(deps: {
  db: DbHandle;
  dataDir: string;
  publicUrl: string;
  sessions: AuthService;
  logger: Logger;
}): AccountModule {
  const service = createAccountService({
    repo: createAccountRepository(deps.db.db),
    images: createProfileImages({ maxPixels: MAX_IMAGE_PIXELS }),
    avatars: createAvatarStorage(deps.dataDir),
    sessions: deps.sessions,
    publicUrl: deps.publicUrl,
    logger: deps.logger,
  });
  return { service, registerRoutes: (app, guard) => registerAccountRoutes(app, { account: service, guard }) };
}
