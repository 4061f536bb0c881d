import {
  AUDIO_CONTENT_TYPES,
  AUDIO_NAME_MAX,
  type Audio,
  MAX_AUDIO_BYTES,
  MAX_AUDIO_SECONDS,
  type Page,
} from '@ecoa/shared';
import type { Clock } from '../../platform/clock/clock.ts';
import type { Tx } from '../../platform/db/client.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import type { Logger } from '../../platform/logger.ts';
import type { AudioStorage, StoredAudio } from './audio-storage.ts';
import type { AudiosRepository } from './audios.repository.ts';
import type { AudioRow } from './audios.schema.ts';
import type { PlaybackTokens } from './playback-token.ts';
import { type AudioInfo, AudioProbeError, openFileSource, probeAudio } from './probe/index.ts';

/**
 * Whether a scheduled or running campaign plays this audio. The campaigns module answers it;
 * the delete asks inside its transaction (`tx`), with the audio's row locked.
 */
export type AudioInUse = (userId: string, audioId: string, tx?: Tx) => Promise<boolean>;

export type AudiosServiceDeps = {
  repo: AudiosRepository;
  storage: AudioStorage;
  clock: Clock;
  tokens: PlaybackTokens;
  /** Absolute links start here (PUBLIC_URL, no trailing slash). */
  publicUrl: string;
  audioInUse: AudioInUse;
  logger: Logger;
};

/** A playback link lasts 6 hours unless the caller asks otherwise (at least a minute, at most a week). */
export const DEFAULT_PLAYBACK_TTL_SECONDS = 6 * 3600;
const MIN_TTL_SECONDS = 60;
const MAX_TTL_SECONDS = 7 * 24 * 3600;
/**
 * Expiries are rounded up to a 5-minute boundary: the links made for one audio within those 5
 * minutes are the same URL, so a carrier that caches by URL fetches the file once per campaign
 * wave, not once per call.
 */
const EXPIRY_STEP_SECONDS = 300;
/** Shown rounded to the second: what shows as 3:00 is accepted (see MAX_AUDIO_SECONDS). */
const MAX_DURATION_MS = MAX_AUDIO_SECONDS * 1000 + 500;

export type UploadedAudio = { path: string; size: number };
export type AudioFile = { audio: Audio; contentType: string; file: StoredAudio };

function toDto(row: AudioRow): Audio {
  return {
    id: row.id,
    name: row.name,
    format: row.format,
    codec: row.codec,
    durationSeconds: row.durationMs / 1000,
    sizeBytes: row.sizeBytes,
    sampleRate: row.sampleRate,
    channels: row.channels,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The project's text rules for a name: trimmed, required, at most 120 characters. */
function checkName(raw: string | undefined): string {
  const name = (raw ?? '').trim();
  if (!name) throw new AppError('AUDIO_NAME_REQUIRED');
  if (name.length > AUDIO_NAME_MAX) throw new AppError('AUDIO_NAME_TOO_LONG', { max: AUDIO_NAME_MAX });
  return name;
}

async function probeFile(filePath: string): Promise<AudioInfo> {
  const source = await openFileSource(filePath);
  try {
    return await probeAudio(source);
  } catch (err) {
    if (err instanceof AudioProbeError) throw new AppError(err.code, { reason: err.reason });
    throw err;
  } finally {
    await source.close();
  }
}

export function createAudiosService(deps: AudiosServiceDeps) {
  const { repo, storage, clock, tokens, publicUrl, audioInUse, logger } = deps;

  async function owned(userId: string, id: string): Promise<AudioRow> {
    const row = await repo.findOwned(userId, id);
    if (!row) throw new AppError('AUDIO_NOT_FOUND');
    return row;
  }

  async function openRow(row: AudioRow): Promise<AudioFile> {
    const file = await storage.open(row.storageName);
    if (!file) {
      // Backups must include DATA_DIR/audios: a row without its file is worth an alert.
      logger.error({ audioId: row.id, storageName: row.storageName }, 'an audio file is missing');
      throw new AppError('AUDIO_NOT_FOUND');
    }
    return { audio: toDto(row), contentType: AUDIO_CONTENT_TYPES[row.format], file };
  }

  return {
    /**
     * Keeps an upload when its content is MP3, WAV or Ogg (Vorbis/Opus) of at most 3 minutes:
     * read by our own bounded parsers, never by the file's name. The received file is removed
     * whatever happens, unless it is kept.
     */
    async upload(input: { userId: string; name: string | undefined; file: UploadedAudio }): Promise<Audio> {
      try {
        const name = checkName(input.name);
        if (input.file.size > MAX_AUDIO_BYTES) throw new AppError('AUDIO_TOO_LARGE', { maxBytes: MAX_AUDIO_BYTES });
        if (input.file.size === 0) throw new AppError('AUDIO_INVALID', { reason: 'empty file' });
        const info = await probeFile(input.file.path);
        const durationMs = Math.round(info.durationSeconds * 1000);
        // A stream whose samples round to no time at all has nothing to play.
        if (durationMs < 1) throw new AppError('AUDIO_INVALID', { reason: 'shorter than a millisecond' });
        if (!Number.isFinite(durationMs) || durationMs >= MAX_DURATION_MS) {
          throw new AppError('AUDIO_TOO_LONG', {
            maxSeconds: MAX_AUDIO_SECONDS,
            durationSeconds: Number.isFinite(durationMs) ? durationMs / 1000 : null,
          });
        }
        const storageName = await storage.keep(input.file.path, info.format);
        try {
          const row = await repo.insert(
            {
              userId: input.userId,
              name,
              format: info.format,
              codec: info.codec,
              durationMs,
              sizeBytes: input.file.size,
              sampleRate: info.sampleRate,
              channels: info.channels,
              storageName,
            },
            clock.now(),
          );
          return toDto(row);
        } catch (err) {
          await storage.remove(storageName);
          throw err;
        }
      } finally {
        await storage.discard(input.file.path);
      }
    },

    async list(userId: string, page: number, pageSize: number, q = ''): Promise<Page<Audio>> {
      const { rows, total } = await repo.page(userId, page, pageSize, q);
      return { items: rows.map(toDto), page, pageSize, total };
    },

    async get(userId: string, id: string): Promise<Audio> {
      return toDto(await owned(userId, id));
    },

    /** Whether the user has this audio (a voice campaign's check). */
    async exists(userId: string, id: string): Promise<boolean> {
      return (await repo.findOwned(userId, id)) !== undefined;
    },

    /**
     * Holds the user's audio (shared lock) until `tx` ends; false when it is gone. A campaign's
     * start takes it, so the start and the audio's delete serialise.
     */
    lockShared: (userId: string, id: string, tx: Tx): Promise<boolean> => repo.lockShared(userId, id, tx),

    /** The owner's file, opened for the route to stream (whole or by ranges). */
    async openFile(userId: string, id: string): Promise<AudioFile> {
      return openRow(await owned(userId, id));
    },

    async rename(userId: string, id: string, name: string): Promise<Audio> {
      const checked = checkName(name);
      const row = await repo.rename(userId, id, checked, clock.now());
      if (!row) throw new AppError('AUDIO_NOT_FOUND');
      return toDto(row);
    },

    /** Deletes the audio and its file; 409 AUDIO_IN_USE while a scheduled or running campaign plays it. */
    async remove(userId: string, id: string): Promise<void> {
      const result = await repo.deleteUnlessInUse(userId, id, (tx) => audioInUse(userId, id, tx));
      if (result === 'not-found') throw new AppError('AUDIO_NOT_FOUND');
      if (result === 'in-use') throw new AppError('AUDIO_IN_USE');
      await storage.remove(result.deleted.storageName);
    },

    /**
     * An absolute link anyone holding it may play, until it expires: for the carrier's `<Play>`
     * (`PUBLIC_URL/api/v1/audios/play/<token>`). Valid for at least `ttlSeconds` (6 h by
     * default) and at most 5 minutes more.
     */
    async playbackUrl(userId: string, audioId: string, ttlSeconds = DEFAULT_PLAYBACK_TTL_SECONDS): Promise<string> {
      const row = await owned(userId, audioId);
      const ttl = Math.min(MAX_TTL_SECONDS, Math.max(MIN_TTL_SECONDS, Math.ceil(ttlSeconds)));
      const expires = Math.ceil((clock.now().getTime() / 1000 + ttl) / EXPIRY_STEP_SECONDS) * EXPIRY_STEP_SECONDS;
      return `${publicUrl}/api/v1/audios/play/${tokens.sign(row.id, new Date(expires * 1000))}`;
    },

    /** The file a playback link names: 401 for a forged or expired link, 404 when the audio is gone. */
    async openByToken(token: string): Promise<AudioFile & { secondsLeft: number }> {
      const now = clock.now();
      const verified = tokens.verify(token, now);
      if ('refused' in verified) {
        throw new AppError(verified.refused === 'expired' ? 'AUDIO_LINK_EXPIRED' : 'AUDIO_LINK_INVALID');
      }
      const row = await repo.findById(verified.audioId);
      if (!row) throw new AppError('AUDIO_NOT_FOUND');
      const secondsLeft = Math.floor((verified.expiresAt.getTime() - now.getTime()) / 1000);
      return { ...(await openRow(row)), secondsLeft };
    },
  };
}

export type AudiosService = ReturnType<typeof createAudiosService>;
