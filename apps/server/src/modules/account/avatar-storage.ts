import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Where profile pictures live: `${DATA_DIR}/avatars/<32 random hex>.webp`, one file per upload
 * (a new upload is a new name, so a served file never changes and may be cached forever).
 * DATA_DIR is already what the processes of one deployment share (PGlite, list uploads that
 * `npm run worker` processes import, the auth secret, the outbox), so any server process of the
 * deployment can serve any picture. Writes go to a temporary name and are renamed into place:
 * a reader never sees half a file.
 */
export type AvatarStorage = {
  readonly dir: string;
  /** Stores the bytes under a new unguessable name; answers the name. */
  save(bytes: Buffer): Promise<string>;
  /** The bytes of a stored picture; null for a name that is not ours or no longer exists. */
  read(name: string): Promise<Buffer | null>;
  remove(name: string | null | undefined): Promise<void>;
};

/** 128 random bits, hex, and the one extension we write. */
export const AVATAR_NAME = /^[0-9a-f]{32}\.webp$/;

export function createAvatarStorage(dataDir: string): AvatarStorage {
  const dir = path.join(dataDir, 'avatars');
  const fileOf = (name: string) => (AVATAR_NAME.test(name) ? path.join(dir, name) : null);
  return {
    dir,
    async save(bytes) {
      await fs.promises.mkdir(dir, { recursive: true });
      const name = `${crypto.randomBytes(16).toString('hex')}.webp`;
      const file = path.join(dir, name);
      const temp = `${file}.${process.pid}.tmp`;
      try {
        await fs.promises.writeFile(temp, bytes, { flag: 'wx' });
        await fs.promises.rename(temp, file);
      } catch (err) {
        await fs.promises.rm(temp, { force: true });
        throw err;
      }
      return name;
    },
    async read(name) {
      const file = fileOf(name);
      if (!file) return null;
      try {
        return await fs.promises.readFile(file);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
    async remove(name) {
      const file = name ? fileOf(name) : null;
      if (file) await fs.promises.rm(file, { force: true });
    },
  };
}
