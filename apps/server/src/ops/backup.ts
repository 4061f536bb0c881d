/**
 * `npm run backup -- <file>`: the whole of a PGlite deployment in one ZIP file.
 *
 * Layout (format version 1):
 *   manifest.json       what the backup holds (BackupManifest below), written first
 *   data/<path>         every directory and file of DATA_DIR, the database included (`data/pglite/…`),
 *                       except the lock (`pglite.pid`, `pglite.lock`) and the backup file itself
 *
 * How the database copy is consistent: we take the PGlite lock (so the server cannot be running
 * and nothing else writes), open the database, CHECKPOINT, read the manifest's figures, then
 * close PGlite cleanly (PostgreSQL's shutdown checkpoint) and copy its directory while still
 * holding the lock. That is PostgreSQL's "cold" file-level backup: the files are exactly what a
 * restarted server would open. We do not use PGlite's `dumpDataDir()`: it builds the whole
 * tarball in memory, and a database with millions of contacts would not fit; this streams file
 * by file with a few hundred KB.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createZipFile } from '../platform/archive/zip-writer.ts';
import type { Config } from '../platform/config/config.ts';
import { AppError } from '../platform/errors/app-error.ts';
import { type DataDirEntry, openExistingPglite, pgliteLockNames, walkDataDir } from './data-dir.ts';
import { type DbFacts, pgliteQuery, readDbFacts } from './db-facts.ts';

export const BACKUP_FORMAT = 'ecoa-backup';
export const BACKUP_FORMAT_VERSION = 1;
export const MANIFEST_ENTRY = 'manifest.json';
export const DATA_PREFIX = 'data/';

export type BackupManifest = DbFacts & {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  createdAt: string;
  database: 'pglite';
  /** Everything under data/: the database's files and the others, per top-level folder. */
  files: Record<string, { files: number; bytes: number }>;
};

export type BackupResult = {
  file: string;
  bytes: number;
  seconds: number;
  manifest: BackupManifest;
  skipped: string[];
};

export async function createBackup(options: { config: Config; file: string; now?: () => Date }): Promise<BackupResult> {
  const { config } = options;
  const started = performance.now();
  if (config.databaseUrl) {
    throw new AppError('BACKUP_POSTGRES', undefined, {
      text: 'backup: DATABASE_URL is set, so the data lives in PostgreSQL: back it up with `pg_dump -Fc` (see the README, "Backups and moving to PostgreSQL") and keep DATA_DIR\'s folders beside it.',
    });
  }
  const file = path.resolve(options.file);
  if (fs.existsSync(file))
    throw new AppError('BACKUP_EXISTS', undefined, { text: `backup: ${file} already exists; choose a new file name.` });
  const partial = `${file}.partial`;

  const handle = await openExistingPglite(config, 'backup');
  try {
    const pglite = handle.pglite!;
    await pglite.exec('checkpoint');
    const facts = await readDbFacts(pgliteQuery(pglite));
    // A clean shutdown: every page on disk, nothing left to replay. The lock stays ours until handle.close().
    await pglite.close();

    const excluded = new Set([
      ...pgliteLockNames(config),
      ...[file, partial].map((f) => path.relative(config.dataDir, f)),
    ]);
    const { entries, skipped } = walkDataDir(config.dataDir, (rel) => excluded.has(rel));
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      formatVersion: BACKUP_FORMAT_VERSION,
      createdAt: (options.now?.() ?? new Date()).toISOString(),
      database: 'pglite',
      ...facts,
      files: summarise(entries),
    };
    fs.mkdirSync(path.dirname(file), { recursive: true });
    try {
      await writeArchive(partial, config.dataDir, manifest, entries);
      // Only a complete archive gets the name asked for: a failed backup never looks like one.
      fs.renameSync(partial, file);
    } catch (err) {
      fs.rmSync(partial, { force: true });
      throw err;
    }
    const seconds = (performance.now() - started) / 1000;
    return { file, bytes: fs.statSync(file).size, seconds, manifest, skipped };
  } finally {
    await handle.close();
  }
}

async function writeArchive(
  target: string,
  root: string,
  manifest: BackupManifest,
  entries: DataDirEntry[],
): Promise<void> {
  // Level 1: data files are mostly empty pages that any level squeezes, and a big base backs up several times faster.
  // 0600: the archive holds every account and the auth secret.
  const zip = createZipFile(target, { level: 1, mode: 0o600 });
  const manifestEntry = zip.entry(MANIFEST_ENTRY);
  await manifestEntry.write(`${JSON.stringify(manifest, null, 2)}\n`);
  await manifestEntry.end();
  for (const e of entries) {
    if (e.kind === 'dir') {
      await zip.entry(`${DATA_PREFIX}${e.relative}/`, e.modifiedAt, e.mode).end();
      continue;
    }
    const entry = zip.entry(`${DATA_PREFIX}${e.relative}`, e.modifiedAt, e.mode);
    await pipeline(fs.createReadStream(path.join(root, e.relative)), async (source: AsyncIterable<Buffer>) => {
      for await (const chunk of source) await entry.write(chunk);
    });
    await entry.end();
  }
  await zip.close();
}

/** Files and bytes per top-level entry of DATA_DIR (`pglite`, `uploads`, `auth-secret`, …). */
function summarise(entries: DataDirEntry[]): BackupManifest['files'] {
  const files: BackupManifest['files'] = {};
  for (const e of entries) {
    const top = e.relative.split('/')[0]!;
    files[top] ??= { files: 0, bytes: 0 };
    if (e.kind === 'file') {
      files[top].files += 1;
      files[top].bytes += e.size;
    }
  }
  return files;
}
