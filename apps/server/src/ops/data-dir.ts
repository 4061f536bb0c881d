/**
 * DATA_DIR as the operations commands see it: the embedded database (`pglite/`, and its lock
 * `pglite.pid` and `pglite.lock` beside it) and the files the modules keep (uploads, audios, avatars, outbox,
 * auth-secret, …). Backup, restore and db:move open the database through here, so each refuses
 * the same way when the server holds it.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../platform/config/config.ts';
import { type DbHandle, openDb } from '../platform/db/client.ts';
import { pgliteLockFiles } from '../platform/db/pglite-lock.ts';
import { AppError } from '../platform/errors/app-error.ts';
import { pgliteDir } from '../server.ts';

export function hasPgliteDatabase(config: Config): boolean {
  return fs.existsSync(path.join(pgliteDir(config), 'PG_VERSION'));
}

/**
 * Opens the PGlite in DATA_DIR for a command that needs it alone. Never creates one (openDb
 * would run initdb on an empty directory), and explains the lock instead of only naming it.
 */
export async function openExistingPglite(config: Config, command: string): Promise<DbHandle> {
  if (!hasPgliteDatabase(config)) {
    throw new AppError('NO_PGLITE_DATABASE', undefined, {
      text: `${command}: there is no PGlite database in ${pgliteDir(config)} (DATA_DIR=${config.dataDir}).`,
    });
  }
  try {
    return await openDb({ pgliteDir: pgliteDir(config) });
  } catch (err) {
    if (err instanceof AppError && err.code === 'PGLITE_IN_USE') {
      const { pid } = err.details as { pid: number | undefined };
      throw new AppError('PGLITE_IN_USE', undefined, {
        text:
          `${command}: the database in ${config.dataDir} is in use by ${pid === undefined ? 'another process' : `process ${pid}`} (the server?). Stop it first: ` +
          'PGlite belongs to the one process that opened it, so no other process can read a consistent copy while it runs.',
      });
    }
    throw err;
  }
}

export type DataDirEntry = {
  relative: string;
  kind: 'dir' | 'file';
  size: number;
  modifiedAt: Date;
  /** Permission bits (auth-secret is 0600): a backup keeps them and a restore puts them back. */
  mode: number;
};

/**
 * Every directory and regular file under `root`, parents before children, in a stable order.
 * Empty directories matter: PostgreSQL refuses to start without `pg_tblspc/`, `pg_notify/`…
 * Symbolic links and other special files are skipped (`skipped` names them).
 */
export function walkDataDir(
  root: string,
  exclude: (relative: string) => boolean,
): { entries: DataDirEntry[]; skipped: string[] } {
  const entries: DataDirEntry[] = [];
  const skipped: string[] = [];
  const visit = (relative: string) => {
    for (const name of fs.readdirSync(path.join(root, relative)).sort()) {
      const rel = relative ? `${relative}/${name}` : name;
      if (exclude(rel)) continue;
      const stat = fs.lstatSync(path.join(root, rel));
      if (stat.isDirectory()) {
        entries.push({ relative: rel, kind: 'dir', size: 0, modifiedAt: stat.mtime, mode: stat.mode & 0o777 });
        visit(rel);
      } else if (stat.isFile()) {
        entries.push({ relative: rel, kind: 'file', size: stat.size, modifiedAt: stat.mtime, mode: stat.mode & 0o777 });
      } else {
        skipped.push(rel);
      }
    }
  };
  if (fs.existsSync(root)) visit('');
  return { entries, skipped };
}

/** The lock's files relative to DATA_DIR (`pglite.pid`, `pglite.lock`, …): never part of a backup. */
export function pgliteLockNames(config: Config): string[] {
  return Object.values(pgliteLockFiles(pgliteDir(config))).map((file) => path.relative(config.dataDir, file));
}
