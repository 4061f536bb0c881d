import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { AudioFormat } from '@ecoa/shared';
import { streamToNewFile } from '../../platform/http/upload-storage.ts';

/** A stored audio opened for reading: its size and streams over byte ranges of it. */
export type StoredAudio = {
  size: number;
  /** The bytes [start, end] (inclusive), or the whole file. Reading it to the end closes the file. */
  stream(range?: { start: number; end: number }): Readable;
  /** Closes the file when no stream is read (a HEAD, a refused range). */
  close(): Promise<void>;
};

/**
 * Where audios live: `${DATA_DIR}/audios/<32 random hex>.<mp3|wav|ogg>`, one file per upload,
 * never rewritten (a rename changes the row, not the file). An upload is streamed to a temporary
 * `.upload` file in the same folder, probed there, and renamed into place when kept: a reader
 * never sees half a file, and nothing outside this folder is ever read or removed. DATA_DIR is
 * what a deployment's processes share (ADR 005), so any server process serves any audio.
 */
export type AudioStorage = {
  readonly dir: string;
  /** Streams an upload to a temporary file; answers its path and size. Removes it if the stream fails. */
  receive(stream: Readable): Promise<{ path: string; size: number }>;
  /** Moves a received file into place under a new name; answers the name. */
  keep(tempPath: string, format: AudioFormat): Promise<string>;
  /** Removes a received file that is not kept. */
  discard(tempPath: string | undefined): Promise<void>;
  open(name: string): Promise<StoredAudio | null>;
  remove(name: string): Promise<void>;
};

export const AUDIO_FILE_NAME = /^[0-9a-f]{32}\.(mp3|wav|ogg)$/;
const UPLOAD_NAME = /^[0-9a-f]{32}\.upload$/;
/** A received upload older than this was left by a process that died mid-request. */
const STALE_UPLOAD_MS = 60 * 60 * 1000;

export function createAudioStorage(dataDir: string): AudioStorage {
  const dir = path.join(dataDir, 'audios');
  const inside = (name: string, pattern: RegExp) => (pattern.test(name) ? path.join(dir, name) : null);
  let swept = false;
  /** Once per process, at its first upload: removes what a process that died mid-upload left. */
  const sweepStaleUploads = async () => {
    swept = true;
    const now = Date.now();
    for (const name of await fs.promises.readdir(dir)) {
      const file = inside(name, UPLOAD_NAME);
      if (!file) continue;
      const stat = await fs.promises.stat(file).catch(() => null);
      if (stat && now - stat.mtimeMs > STALE_UPLOAD_MS) await fs.promises.rm(file, { force: true });
    }
  };
  const received = (tempPath: string | undefined) =>
    tempPath && path.dirname(path.resolve(tempPath)) === path.resolve(dir)
      ? inside(path.basename(tempPath), UPLOAD_NAME)
      : null;
  return {
    dir,
    async receive(stream) {
      await fs.promises.mkdir(dir, { recursive: true });
      if (!swept) await sweepStaleUploads();
      return streamToNewFile(stream, path.join(dir, `${crypto.randomBytes(16).toString('hex')}.upload`));
    },
    async keep(tempPath, format) {
      const from = received(tempPath);
      if (!from) throw new Error('not a received audio upload');
      const name = `${crypto.randomBytes(16).toString('hex')}.${format}`;
      await fs.promises.rename(from, path.join(dir, name));
      return name;
    },
    async discard(tempPath) {
      const file = received(tempPath);
      if (file) await fs.promises.rm(file, { force: true });
    },
    async open(name) {
      const file = inside(name, AUDIO_FILE_NAME);
      if (!file) return null;
      let handle: fs.promises.FileHandle;
      try {
        handle = await fs.promises.open(file, 'r');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
      const { size } = await handle.stat();
      return {
        size,
        stream: (range) => handle.createReadStream(range ? { start: range.start, end: range.end } : { start: 0 }),
        close: () => handle.close(),
      };
    },
    async remove(name) {
      const file = inside(name, AUDIO_FILE_NAME);
      if (file) await fs.promises.rm(file, { force: true });
    },
  };
}
