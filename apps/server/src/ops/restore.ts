/**
 * `npm run restore -- <file>`: a backup (backup.ts) back into an empty DATA_DIR. Every entry's
 * name is checked first; the archive is unpacked into a sibling folder, whose database is opened
 * there and checked against the manifest (every table's rows, the ledger's totals) before
 * anything changes it, then migrated forward (a backup made by an older Ecoa comes up to this
 * one). Only then is the folder renamed into place: whatever fails on the way, DATA_DIR stays
 * as it was (empty), so a damaged backup never leaves a half-restored deployment to start on.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { openZip, type ZipArchive, ZipFormatError, ZipLimitError } from '../platform/archive/zip.ts';
import type { Config } from '../platform/config/config.ts';
import { openDb } from '../platform/db/client.ts';
import { runMigrations } from '../platform/db/migrate.ts';
import { AppError } from '../platform/errors/app-error.ts';
import { pgliteDir } from '../server.ts';
import { BACKUP_FORMAT, BACKUP_FORMAT_VERSION, type BackupManifest, DATA_PREFIX, MANIFEST_ENTRY } from './backup.ts';
import { compareFacts, ledgerTotals, migrationCount, pgliteQuery, readDbFacts } from './db-facts.ts';

/** Our own archives: the limits of zip.ts guard against hostile uploads, not against a big database. */
const BACKUP_ZIP_LIMITS = {
  maxEntries: 5_000_000,
  maxEntryBytes: Number.MAX_SAFE_INTEGER,
  maxTotalBytes: Number.MAX_SAFE_INTEGER,
  maxRatio: Number.MAX_SAFE_INTEGER,
  maxCentralDirectoryBytes: 1024 * 1024 * 1024,
};

export type RestoreResult = {
  manifest: BackupManifest;
  /** Migrations in the backup, and after this Ecoa's were applied. */
  migrationsBefore: number;
  migrationsAfter: number;
  files: number;
  bytes: number;
  seconds: number;
};

export async function restoreBackup(options: { config: Config; file: string }): Promise<RestoreResult> {
  const { config } = options;
  const started = performance.now();
  if (config.databaseUrl) {
    throw new AppError('RESTORE_POSTGRES', undefined, {
      text: 'restore: DATABASE_URL is set. A backup restores into an embedded PGlite in DATA_DIR; unset DATABASE_URL, restore, then `npm run db:move` it to PostgreSQL (or use `pg_restore` for a pg_dump).',
    });
  }
  assertEmptyDataDir(config.dataDir);
  const file = path.resolve(options.file);
  if (!fs.existsSync(file))
    throw new AppError('BACKUP_NOT_FOUND', undefined, { text: `restore: ${file} does not exist.` });
  const zip = await damagedAs(file, () => openZip(file, BACKUP_ZIP_LIMITS));
  const manifest = await readManifest(zip);
  const targets = entryTargets(zip);

  const staging = `${config.dataDir}.restoring-${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  let files = 0;
  let bytes = 0;
  try {
    const folderModes: [string, number][] = [];
    for (const { entry, relative } of targets) {
      const target = path.join(staging, relative);
      // Only permission bits (no setuid and the like), as the backup recorded them.
      const mode = entry.unixMode === undefined ? undefined : entry.unixMode & 0o777;
      if (entry.isDirectory) {
        fs.mkdirSync(target, { recursive: true });
        if (mode !== undefined) folderModes.push([target, mode]);
        continue;
      }
      fs.mkdirSync(path.dirname(target), { recursive: true });
      // Created private, then given its recorded mode: a secret is never readable by others on the way.
      // A backup without modes (an older Ecoa's) restores its files private.
      const output = fs.createWriteStream(target, { flags: 'wx', mode: 0o600 });
      await damagedAs(file, async () => pipeline(await zip.openEntry(entry), output));
      fs.chmodSync(target, mode ?? 0o600);
      files += 1;
      bytes += entry.size;
    }
    // Folders last: a read-only one would refuse the files written into it.
    for (const [folder, mode] of folderModes.reverse()) fs.chmodSync(folder, mode);
    // PostgreSQL wants its data directory private.
    if (fs.existsSync(path.join(staging, 'pglite'))) fs.chmodSync(path.join(staging, 'pglite'), 0o700);
    const checked = await checkAndMigrate(pgliteDir({ ...config, dataDir: staging }), manifest);
    assertEmptyDataDir(config.dataDir);
    fs.rmSync(config.dataDir, { recursive: true, force: true });
    fs.renameSync(staging, config.dataDir);
    const seconds = (performance.now() - started) / 1000;
    return { manifest, ...checked, files, bytes, seconds };
  } catch (err) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw err;
  }
}

/** The unpacked database, opened where it was unpacked: checked against the manifest, then migrated. */
async function checkAndMigrate(dir: string, manifest: BackupManifest) {
  if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) {
    throw new AppError('BACKUP_INVALID', undefined, {
      text: 'restore: the backup holds no database (no data/pglite/PG_VERSION).',
    });
  }
  // The files passed their CRCs: a database that does not open or read is missing some of them.
  const unreadable = (err: unknown) =>
    new AppError('BACKUP_INVALID', undefined, {
      text: `restore: the backup's database cannot be opened or read: ${(err as Error).message}`,
    });
  const handle = await openDb({ pgliteDir: dir }).catch((err: unknown) => {
    throw unreadable(err);
  });
  try {
    const query = pgliteQuery(handle.pglite!);
    const restored = await readDbFacts(query).catch((err: unknown) => {
      throw unreadable(err);
    });
    const problems = compareFacts(manifest, restored);
    if (restored.migrations !== manifest.migrations) {
      problems.unshift(`migrations: ${manifest.migrations} expected, ${restored.migrations} found`);
    }
    if (problems.length > 0) {
      throw new AppError('RESTORE_MISMATCH', undefined, {
        text: `restore: the restored database does not match the backup's manifest, so nothing was restored: ${problems.join('; ')}`,
      });
    }
    await runMigrations(handle);
    // Migrations may add tables or reshape rows, but never move money.
    const ledgerProblems = compareFacts(
      { tables: {}, ledger: manifest.ledger },
      { tables: {}, ledger: await ledgerTotals(query) },
    );
    if (ledgerProblems.length > 0) {
      throw new AppError('RESTORE_MISMATCH', undefined, {
        text: `restore: the ledger changed while migrating: ${ledgerProblems.join('; ')}`,
      });
    }
    return { migrationsBefore: restored.migrations, migrationsAfter: await migrationCount(query) };
  } finally {
    await handle.close();
  }
}

/** A damaged archive (broken, truncated, failing a CRC) as the refusal the operator reads. */
async function damagedAs<T>(file: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof ZipFormatError || err instanceof ZipLimitError) {
      throw new AppError('BACKUP_INVALID', undefined, {
        text: `restore: ${file} is damaged or not a backup (${err.message}).`,
      });
    }
    throw err;
  }
}

/** DATA_DIR may be missing or an empty folder; anything in it (a database, uploads) is someone's data. */
function assertEmptyDataDir(dataDir: string): void {
  if (!fs.existsSync(dataDir)) return;
  if (!fs.statSync(dataDir).isDirectory())
    throw new AppError('RESTORE_NOT_EMPTY', undefined, { text: `restore: DATA_DIR ${dataDir} is a file.` });
  const present = fs.readdirSync(dataDir);
  if (present.length > 0) {
    throw new AppError('RESTORE_NOT_EMPTY', undefined, {
      text: `restore: DATA_DIR ${dataDir} is not empty (${present.slice(0, 5).join(', ')}${present.length > 5 ? ', …' : ''}); restore only goes into an empty DATA_DIR, so nothing is overwritten.`,
    });
  }
}

const invalid = (why: string) =>
  new AppError('BACKUP_INVALID', undefined, { text: `restore: not a valid Ecoa backup (${why}).` });

async function readManifest(zip: ZipArchive): Promise<BackupManifest> {
  const entry = zip.find(MANIFEST_ENTRY);
  if (!entry)
    throw new AppError('BACKUP_INVALID', undefined, { text: `restore: not an Ecoa backup (no ${MANIFEST_ENTRY}).` });
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse((await zip.readEntry(entry, { maxBytes: 16 * 1024 * 1024 })).toString('utf8'));
  } catch {
    throw new AppError('BACKUP_INVALID', undefined, {
      text: `restore: the backup's ${MANIFEST_ENTRY} is not valid JSON.`,
    });
  }
  if (manifest?.format !== BACKUP_FORMAT || typeof manifest.formatVersion !== 'number') {
    throw new AppError('BACKUP_INVALID', undefined, { text: 'restore: not an Ecoa backup (unknown manifest format).' });
  }
  if (manifest.formatVersion > BACKUP_FORMAT_VERSION) {
    throw new AppError('BACKUP_TOO_NEW', undefined, {
      text: `restore: this backup's format is version ${manifest.formatVersion}, this Ecoa reads up to ${BACKUP_FORMAT_VERSION}: restore it with a newer Ecoa.`,
    });
  }
  const isRecord = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  if (typeof manifest.migrations !== 'number' || !isRecord(manifest.tables) || !isRecord(manifest.ledger)) {
    throw invalid(`${MANIFEST_ENTRY} lacks its migrations, tables or ledger`);
  }
  return manifest;
}

/**
 * Where each entry goes under DATA_DIR, checked before anything is unpacked: every name is
 * `data/<path>` inside DATA_DIR, none twice, and none both a file and a folder.
 */
function entryTargets(zip: ZipArchive) {
  const targets = zip.entries
    .filter((entry) => entry.name !== MANIFEST_ENTRY)
    .map((entry) => ({ entry, relative: safeRelativePath(entry.name) }));
  const files = new Set<string>();
  const folders = new Set<string>();
  for (const { entry, relative } of targets) {
    if (files.has(relative) || (!entry.isDirectory && folders.has(relative))) {
      throw invalid(`${JSON.stringify(entry.name)} is in it twice`);
    }
    (entry.isDirectory ? folders : files).add(relative);
    const parts = relative.split('/');
    for (let i = 1; i < parts.length; i++) folders.add(parts.slice(0, i).join('/'));
  }
  for (const folder of folders)
    if (files.has(folder)) throw invalid(`${JSON.stringify(folder)} is a file and a folder`);
  return targets;
}

/** `data/<path>` → `<path>`, refusing anything that could land outside DATA_DIR. */
function safeRelativePath(name: string): string {
  const relative = name.startsWith(DATA_PREFIX) ? name.slice(DATA_PREFIX.length).replace(/\/$/, '') : undefined;
  const parts = relative?.split('/') ?? [];
  if (!relative || parts.some((p) => p === '' || p === '.' || p === '..' || p.includes('\\') || p.includes('\0'))) {
    throw new AppError('BACKUP_INVALID', undefined, {
      text: `restore: the backup holds an unexpected entry ${JSON.stringify(name)}.`,
    });
  }
  return relative;
}
