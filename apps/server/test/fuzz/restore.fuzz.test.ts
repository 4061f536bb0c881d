import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createBackup } from '../../src/ops/backup.ts';
import { restoreBackup } from '../../src/ops/restore.ts';
import type { Config } from '../../src/platform/config/config.ts';
import { openDb } from '../../src/platform/db/client.ts';
import { runMigrations } from '../../src/platform/db/migrate.ts';
import { AppError } from '../../src/platform/errors/app-error.ts';
import { dbKind, tempDir, testConfig } from '../server.test-support.ts';
import { zipBuffer } from '../zip-writer.test-support.ts';
import { backupInputs, rawEntries } from './backups.test-support.ts';
import { type FuzzOutcome, fuzz } from './harness.test-support.ts';

const BUDGET = {
  runs: 400,
  timeLimitMs: Number(process.env.FUZZ_SECONDS ?? 20) * 1000,
  maxRssGrowthMb: 400,
  minRuns: 3,
};
/** A backup that is not one, is damaged, too new, or does not match its own manifest. */
const CODES = ['BACKUP_INVALID', 'BACKUP_TOO_NEW', 'RESTORE_MISMATCH'];

/** Restore always targets the embedded PGlite in DATA_DIR, whatever database the suite runs on. */
const pgliteConfig = (dataDir: string): Config => ({ ...testConfig({ DATA_DIR: dataDir }), databaseUrl: undefined });

/**
 * `npm run restore`'s reader (restoreBackup) fed damaged backups of a real small deployment:
 * each is restored whole, or refused with its code leaving DATA_DIR as it was (empty) and no
 * unpacked copy behind; the process stays up.
 */
describe(`fuzzing the backup restore (${dbKind})`, () => {
  let archive: Buffer;
  let entries: Awaited<ReturnType<typeof rawEntries>>;
  let manifest: Awaited<ReturnType<typeof createBackup>>['manifest'];
  let inputs: ReturnType<typeof backupInputs>;
  const work = tempDir('ecoa-restore-fuzz-');

  beforeAll(async () => {
    // A migrated database: the suite's template when there is one (PGlite run), else initdb.
    const source = tempDir('ecoa-restore-src-');
    const template = inject('pgliteTemplate');
    const db = await openDb({
      pgliteDir: path.join(source, 'pglite'),
      loadDataDir: template ? new Blob([fs.readFileSync(template)]) : undefined,
    });
    try {
      await runMigrations(db);
    } finally {
      await db.close();
    }
    fs.mkdirSync(path.join(source, 'uploads'));
    fs.writeFileSync(path.join(source, 'uploads', 'lista.csv'), 'telefone\n11987650001\n');
    const file = path.join(work, 'backup.zip');
    ({ manifest } = await createBackup({ config: pgliteConfig(source), file }));
    archive = fs.readFileSync(file);
    entries = await rawEntries(file);
    inputs = backupInputs(archive, entries, manifest);
  }, 120_000);
  afterAll(() => {
    fs.rmSync(work, { recursive: true, force: true });
  });

  let n = 0;
  let lastMessage = '';
  async function feed(bytes: Buffer): Promise<FuzzOutcome> {
    const file = path.join(work, `input-${n}.zip`);
    const dataDir = path.join(work, `data-${n++}`);
    fs.writeFileSync(file, bytes);
    fs.mkdirSync(dataDir);
    try {
      await restoreBackup({ config: pgliteConfig(dataDir), file });
      expect(fs.existsSync(path.join(dataDir, 'pglite', 'PG_VERSION'))).toBe(true);
      return { accepted: true };
    } catch (err) {
      lastMessage = (err as Error).message;
      const code = err instanceof AppError ? err.code : `UNEXPECTED ${(err as Error).name}: ${(err as Error).message}`;
      expect(fs.readdirSync(dataDir), `DATA_DIR untouched after ${code}`).toEqual([]);
      return { refused: code.slice(0, 300) };
    } finally {
      expect(
        fs.readdirSync(work).filter((name) => name.includes('.restoring-')),
        'no unpacked copy left',
      ).toEqual([]);
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(file, { force: true });
    }
  }

  it('refuses, DATA_DIR left empty: a truncated archive, a database file missing, a manifest that differs', async () => {
    // Before: a missing file or a mismatch was found after DATA_DIR was moved into place, and
    // left there (a raw "could not open file" error, a half-restored deployment to start on).
    // pg_class's file in every database folder.
    const pgClass = (name: string) => /^data\/pglite\/base\/\d+\/1259$/.test(name);
    const manifestAt = entries.findIndex((e) => e.name === 'manifest.json');
    const cases: [Buffer, string, RegExp][] = [
      [archive.subarray(0, archive.length - 100), 'BACKUP_INVALID', /damaged or not a backup/],
      [zipBuffer(entries.filter((e) => !pgClass(e.name))), 'BACKUP_INVALID', /cannot be opened or read/],
      [
        zipBuffer(
          entries.map((e, i) =>
            i === manifestAt
              ? { name: e.name, data: JSON.stringify({ ...manifest, tables: { ...manifest.tables, users: '7' } }) }
              : e,
          ),
        ),
        'RESTORE_MISMATCH',
        /users: 7 rows expected, 0 found/,
      ],
    ];
    expect(entries.filter((e) => pgClass(e.name)).length).toBeGreaterThan(0);
    for (const [bytes, code, message] of cases) {
      const outcome = await feed(bytes);
      expect(outcome).toEqual({ refused: code });
      expect(lastMessage).toMatch(message);
    }
  }, 120_000);

  it('every backup is restored whole or refused with its code, DATA_DIR left empty', async () => {
    const result = await fuzz({ name: 'backup restore', inputs, feed, codes: CODES }, BUDGET);
    expect(result.runs).toBeGreaterThan(2);
  }, 180_000);
});
