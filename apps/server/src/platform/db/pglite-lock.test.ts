import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers.ts';
import { openDb } from './client.ts';
import { acquirePgliteLock, pgliteLockFile } from './pglite-lock.ts';

describe('the PGlite pid lock', () => {
  it('a second open of the same on-disk directory is refused, clearly, until the first closes', async () => {
    const dir = path.join(tempDir('pglite-lock-'), 'pglite');
    const first = await openDb({ pgliteDir: dir });
    try {
      expect(fs.readFileSync(pgliteLockFile(dir), 'utf8').trim()).toBe(String(process.pid));
      await expect(openDb({ pgliteDir: dir })).rejects.toThrow(
        `The PGlite database in ${dir} is in use by process ${process.pid} (is \`npm start\` running?)`,
      );
    } finally {
      await first.close();
    }
    expect(fs.existsSync(pgliteLockFile(dir))).toBe(false);
    const again = await openDb({ pgliteDir: dir });
    await again.close();
  }, 60_000);

  it('a stale lock (its process is gone) is taken over; in-memory PGlite takes no lock', async () => {
    const dir = path.join(tempDir('pglite-lock-'), 'pglite');
    const dead = spawnSync(process.execPath, ['-e', '']).pid!;
    fs.writeFileSync(pgliteLockFile(dir), `${dead}\n`);
    const lock = acquirePgliteLock(dir);
    expect(fs.readFileSync(lock.file, 'utf8').trim()).toBe(String(process.pid));
    lock.release();
    expect(fs.existsSync(lock.file)).toBe(false);
    const memory = await openDb({ pgliteDir: 'memory://' });
    const other = await openDb({ pgliteDir: 'memory://' });
    await memory.close();
    await other.close();
  });
});
