/**
 * `npm run restore -- <file>`: a backup (backup.ts) back into an empty DATA_DIR. The archive is
 * unpacked into a sibling folder first and renamed into place at the end, so a failure halfway
 * leaves no half-restored DATA_DIR. Then the database is opened and checked against the
 * manifest (every table's rows, the ledger's totals) before anything changes it, and the
 * migrations bring a backup made by an older Ecoa up to this one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { openZip, type ZipArchive } from '../platform/archive/zip.ts';
import type { Config } from '../platform/config/config.ts';
import { openDb } from '../platform/db/client.ts';
import { runMigrations } from '../platform/db/migrate.ts';
import { pgliteDir } from '../server.ts';
import { BACKUP_FORMAT, BACKUP_FORMAT_VERSION, type BackupManifest, DATA_PREFIX, MANIFEST_ENTRY } from './backup.ts';
import { opsRefusal } from './data-dir.ts';
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
    throw opsRefusal(
      'RESTORE_POSTGRES',
      'restore: DATABASE_URL is set. A backup restores into an embedded PGlite in DATA_DIR; unset DATABASE_URL, restore, then `npm run db:move` it to PostgreSQL (or use `pg_restore` for a pg_dump).',
    );
  }
  assertEmptyDataDir(config.dataDir);
  const file = path.resolve(options.file);
  if (!fs.existsSync(file)) throw opsRefusal('BACKUP_NOT_FOUND', `restore: ${file} does not exist.`);
  const zip = await openZip(file, BACKUP_ZIP_LIMITS);
  const manifest = await readManifest(zip);

  const staging = `${config.dataDir}.restoring-${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  let files = 0;
  let bytes = 0;
  try {
    for (const entry of zip.entries) {
      if (entry.name === MANIFEST_ENTRY) continue;
      const target = path.join(staging, safeRelativePath(entry.name));
      if (entry.isDirectory) {
        fs.mkdirSync(target, { recursive: true });
        continue;
      }
      fs.mkdirSync(path.dirname(target), { recursive: true });
      await pipeline(await zip.openEntry(entry), fs.createWriteStream(target));
      files += 1;
      bytes += entry.size;
    }
    // PostgreSQL wants its data directory private.
    if (fs.existsSync(path.join(staging, 'pglite'))) fs.chmodSync(path.join(staging, 'pglite'), 0o700);
    assertEmptyDataDir(config.dataDir);
    fs.rmSync(config.dataDir, { recursive: true, force: true });
    fs.renameSync(staging, config.dataDir);
  } catch (err) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw err;
  }

  const handle = await openDb({ pgliteDir: pgliteDir(config) });
  try {
    const query = pgliteQuery(handle.pglite!);
    const restored = await readDbFacts(query);
    const problems = compareFacts(manifest, restored);
    if (restored.migrations !== manifest.migrations) {
      problems.unshift(`migrations: ${manifest.migrations} expected, ${restored.migrations} found`);
    }
    if (problems.length > 0) {
      throw opsRefusal(
        'RESTORE_MISMATCH',
        `restore: the restored database does not match the backup's manifest (DATA_DIR left as restored, for inspection): ${problems.join('; ')}`,
      );
    }
    await runMigrations(handle);
    // Migrations may add tables or reshape rows, but never move money.
    const ledgerProblems = compareFacts(
      { tables: {}, ledger: manifest.ledger },
      { tables: {}, ledger: await ledgerTotals(query) },
    );
    if (ledgerProblems.length > 0) {
      throw opsRefusal('RESTORE_MISMATCH', `restore: the ledger changed while migrating: ${ledgerProblems.join('; ')}`);
    }
    const migrationsAfter = await migrationCount(query);
    const seconds = (performance.now() - started) / 1000;
    return { manifest, migrationsBefore: restored.migrations, migrationsAfter, files, bytes, seconds };
  } finally {
    await handle.close();
  }
}

/** DATA_DIR may be missing or an empty folder; anything in it (a database, uploads) is someone's data. */
function assertEmptyDataDir(dataDir: string): void {
  if (!fs.existsSync(dataDir)) return;
  if (!fs.statSync(dataDir).isDirectory())
    throw opsRefusal('RESTORE_NOT_EMPTY', `restore: DATA_DIR ${dataDir} is a file.`);
  const present = fs.readdirSync(dataDir);
  if (present.length > 0) {
    throw opsRefusal(
      'RESTORE_NOT_EMPTY',
      `restore: DATA_DIR ${dataDir} is not empty (${present.slice(0, 5).join(', ')}${present.length > 5 ? ', …' : ''}); restore only goes into an empty DATA_DIR, so nothing is overwritten.`,
    );
  }
}

async function readManifest(zip: ZipArchive): Promise<BackupManifest> {
  const entry = zip.find(MANIFEST_ENTRY);
  if (!entry) throw opsRefusal('BACKUP_INVALID', `restore: not an Ecoa backup (no ${MANIFEST_ENTRY}).`);
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse((await zip.readEntry(entry, { maxBytes: 16 * 1024 * 1024 })).toString('utf8'));
  } catch {
    throw opsRefusal('BACKUP_INVALID', `restore: the backup's ${MANIFEST_ENTRY} is not valid JSON.`);
  }
  if (manifest.format !== BACKUP_FORMAT || typeof manifest.formatVersion !== 'number') {
    throw opsRefusal('BACKUP_INVALID', 'restore: not an Ecoa backup (unknown manifest format).');
  }
  if (manifest.formatVersion > BACKUP_FORMAT_VERSION) {
    throw opsRefusal(
      'BACKUP_TOO_NEW',
      `restore: this backup's format is version ${manifest.formatVersion}, this Ecoa reads up to ${BACKUP_FORMAT_VERSION}: restore it with a newer Ecoa.`,
    );
  }
  return manifest;
}

/** `data/<path>` → `<path>`, refusing anything that could land outside DATA_DIR. */
function safeRelativePath(name: string): string {
  const relative = name.startsWith(DATA_PREFIX) ? name.slice(DATA_PREFIX.length).replace(/\/$/, '') : undefined;
  const parts = relative?.split('/') ?? [];
  if (!relative || parts.some((p) => p === '' || p === '.' || p === '..' || p.includes('\\') || p.includes('\0'))) {
    throw opsRefusal('BACKUP_INVALID', `restore: the backup holds an unexpected entry ${JSON.stringify(name)}.`);
  }
  return relative;
}
