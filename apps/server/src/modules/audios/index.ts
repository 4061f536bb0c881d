/** The audios module's public surface: its service (uploads, the carrier's playback links). */
export { type AudiosService, createAudiosService } from './audios.service.ts';
