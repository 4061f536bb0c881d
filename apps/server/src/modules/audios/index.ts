/**
 * The audios module's public surface: the module as the composition root builds it, its service
 * (uploads, the carrier's playback links) and the question it asks the campaigns (`AudioInUse`).
 */
export { type AudiosModule, createAudiosModule } from './audios.module.ts';
export type { AudioInUse } from './audios.service.ts';
export { type AudiosService, createAudiosService } from './audios.service.ts';
