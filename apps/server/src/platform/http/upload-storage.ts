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
      const file = path.join(dir, `${Date.now()}-${crypto.randomUUID()}.upload`);
      try {
        await pipeline(stream, fs.createWriteStream(file, { flags: 'wx' }));
      } catch (err) {
        await fs.promises.rm(file, { force: true });
        throw err;
      }
      const { size } = await fs.promises.stat(file);
      return { path: file, size };
    },
    async remove(filePath) {
      if (!filePath) return;
      // Only ever delete inside the uploads folder.
      if (path.dirname(path.resolve(filePath)) !== path.resolve(dir)) return;
      await fs.promises.rm(filePath, { force: true });
    },
  };
}
