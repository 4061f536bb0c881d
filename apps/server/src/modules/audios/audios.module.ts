/**
 * Audios as the composition root wires them: recordings for voice campaigns in DATA_DIR/audios,
 * signed playback links for the carrier. Whether a campaign still plays one is the campaigns
 * module's to say (`audioInUse`).
 */
import type { Clock } from '../../platform/clock/clock.ts';
import type { DbHandle } from '../../platform/db/client.ts';
import type { RegisterRoutes } from '../../platform/http/module-routes.ts';
import type { Logger } from '../../platform/logger.ts';
import { createAudioStorage } from './audio-storage.ts';
import { createAudiosRepository } from './audios.repository.ts';
import { registerAudiosRoutes } from './audios.routes.ts';
import { type AudiosService, type AudiosServiceDeps, createAudiosService } from './audios.service.ts';
import { createPlaybackTokens } from './playback-token.ts';

export type AudiosModule = { service: AudiosService; registerRoutes: RegisterRoutes };

export function createAudiosModule(deps: {
  db: DbHandle;
  dataDir: string;
  publicUrl: string;
  /** Keys the playback links. */
  secret: string;
  audioInUse: AudiosServiceDeps['audioInUse'];
  clock: Clock;
  logger: Logger;
}): AudiosModule {
  const storage = createAudioStorage(deps.dataDir);
  const service = createAudiosService({
    repo: createAudiosRepository(deps.db.db),
    storage,
    clock: deps.clock,
    tokens: createPlaybackTokens(deps.secret),
    publicUrl: deps.publicUrl,
    audioInUse: deps.audioInUse,
    logger: deps.logger,
  });
  return { service, registerRoutes: (app, guard) => registerAudiosRoutes(app, { audios: service, storage, guard }) };
}
