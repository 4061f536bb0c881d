import { z } from 'zod';

/** An audio upload weighs at most 10 MB (the multipart limit stops reading there). */
export const MAX_AUDIO_BYTES = 10 * 1024 * 1024;
/**
 * An audio lasts at most 3 minutes, as read from the file. Durations are shown rounded to the
 * second (m:ss), so what shows as 3:00 is accepted: the limit refuses from 180.5 s on (an MP3
 * of exactly 3:00 is a few milliseconds longer, its last frame padded).
 */
export const MAX_AUDIO_SECONDS = 180;
export const AUDIO_NAME_MAX = 120;

/** The containers accepted, decided by content: MP3 (MPEG Layer III), WAV (PCM/IEEE float/G.711), Ogg. */
export const AUDIO_FORMATS = ['mp3', 'wav', 'ogg'] as const;
export type AudioFormat = (typeof AUDIO_FORMATS)[number];
/** The Content-Type each format is served with (what browsers and Twilio-style `<Play>` expect). */
export const AUDIO_CONTENT_TYPES: Record<AudioFormat, string> = {
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
};
/** What is inside: MPEG Layer III, linear PCM, IEEE float, G.711 A-law/µ-law, Vorbis, Opus. */
export const AUDIO_CODECS = ['mp3', 'pcm', 'float', 'alaw', 'mulaw', 'vorbis', 'opus'] as const;
export type AudioCodec = (typeof AUDIO_CODECS)[number];

/** `GET /api/v1/audios/:id`, each item of `GET /api/v1/audios`, and the answer of an upload or rename. */
export const audioSchema = z.object({
  id: z.string(),
  name: z.string(),
  format: z.enum(AUDIO_FORMATS),
  codec: z.enum(AUDIO_CODECS),
  /** Seconds, to the millisecond, read from the file. */
  durationSeconds: z.number(),
  sizeBytes: z.number(),
  sampleRate: z.number(),
  channels: z.number(),
  createdAt: z.string(),
});
export type Audio = z.infer<typeof audioSchema>;

/** `PATCH /api/v1/audios/:id`. The name's rules (required, ≤ 120) are the service's, with their codes. */
export const audioRenameSchema = z.object({ name: z.string().max(10_000) });
export type AudioRename = z.infer<typeof audioRenameSchema>;
