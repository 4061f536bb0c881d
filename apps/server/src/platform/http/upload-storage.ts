import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Where uploaded spreadsheets wait for their import: `${DATA_DIR}/uploads/`. */
export type UploadStorage = {
  readonly dir: string;
  /** Streams an upload to a new file; returns its path and size. Removes the file if the stream fails. */
  save(stream: Readable): Promise<{ path: string; size: number }>;
  remove(filePath: string | null | undefined): Promise<void>;
};

export function createUploadStorage(dataDir: string): UploadStorage {
  const dir = path.join(dataDir, 'uploads');
  return {
    dir,
    async save(stream) {
      await fs.promises.mkdir(dir, { recursive: true });
      return streamToNewFile(stream, path.join(dir, `${Date.now()}-${crypto.randomUUID()}.upload`));
    },
    async remove(filePath) {
      if (!filePath) return;
      // Only ever delete inside the uploads folder.
      if (path.dirname(path.resolve(filePath)) !== path.resolve(dir)) return;
      await fs.promises.rm(filePath, { force: true });
    },
  };
}

/** Streams to `file`, which must not exist yet; a stream that fails leaves no file behind. */
export async function streamToNewFile(stream: Readable, file: string): Promise<{ path: string; size: number }> {
  try {
    await pipeline(stream, fs.createWriteStream(file, { flags: 'wx' }));
  } catch (err) {
    await fs.promises.rm(file, { force: true });
    throw err;
  }
  const { size } = await fs.promises.stat(file);
  return { path: file, size };
}
