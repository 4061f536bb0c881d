import type { AudioCodec, AudioFormat } from '@ecoa/shared';

/** What the parsers read from an audio file. */
export type AudioInfo = {
  format: AudioFormat;
  codec: AudioCodec;
  /** Seconds of sound, read from the file's own structures (never decoded). */
  durationSeconds: number;
  /** The rate the audio decodes at, Hz. */
  sampleRate: number;
  channels: number;
};

/**
 * A file the parsers refuse: not one of the accepted types (`AUDIO_TYPE_NOT_ALLOWED`), or one of
 * them broken, truncated or without sound (`AUDIO_INVALID`). `reason` is for the logs and tests.
 */
export class AudioProbeError extends Error {
  constructor(
    readonly code: 'AUDIO_TYPE_NOT_ALLOWED' | 'AUDIO_INVALID',
    readonly reason: string,
  ) {
    super(`${code}: ${reason}`);
    this.name = 'AudioProbeError';
  }
}

export const notAllowed = (reason: string) => new AudioProbeError('AUDIO_TYPE_NOT_ALLOWED', reason);
export const invalid = (reason: string) => new AudioProbeError('AUDIO_INVALID', reason);

export const ascii = (bytes: Buffer, start: number, length: number) =>
  bytes.toString('latin1', start, Math.min(bytes.length, start + length));
