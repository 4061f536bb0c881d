/**
 * `npm run cnpj:import -- <folder> [--month=YYYY-MM]`: loads the Receita Federal's CNPJ files in
 * <folder> (the month's zips, or the files extracted from them) into DATABASE_URL or the PGlite
 * in DATA_DIR, then swaps the new base in at once. Migrations are applied first. On PGlite the
 * server must be stopped (the database belongs to one process). Ctrl-C stops cleanly: the live
 * base is untouched and the import can simply be run again.
 */
import { createCnpjImporter, referenceMonthFor } from './modules/cnpj-base/cnpj-base.importer.ts';
import { createCnpjBaseRepository } from './modules/cnpj-base/cnpj-base.repository.ts';
import { systemClock } from './platform/clock/clock.ts';
import { openDb } from './platform/db/client.ts';
import { runMigrations } from './platform/db/migrate.ts';
import { AppError } from './platform/errors/app-error.ts';
import { loadConfigOrExit } from './platform/process.ts';
import { pgliteDir } from './server.ts';

const args = process.argv.slice(2);
const folder = args.find((a) => !a.startsWith('--'));
const month = args.find((a) => a.startsWith('--month='))?.slice('--month='.length);
if (!folder) {
  process.stderr.write('usage: npm run cnpj:import -- <folder> [--month=YYYY-MM]\n');
  process.exit(2);
}

const fail = (err: unknown): never => {
  process.stderr.write(`${err instanceof AppError ? err.message : ((err as Error).stack ?? String(err))}\n`);
  process.exit(1);
};

const config = loadConfigOrExit();
const referenceMonth = (() => {
  try {
    return referenceMonthFor(folder, month, systemClock.now());
  } catch (err) {
    return fail(err);
  }
})();
const db = await openDb({ databaseUrl: config.databaseUrl, pgliteDir: pgliteDir(config) }).catch(fail);

const abort = new AbortController();
process.on('SIGINT', () => {
  if (abort.signal.aborted) process.exit(130);
  process.stdout.write('\nstopping (Ctrl-C again to quit at once)…\n');
  abort.abort();
});

const count = (n: number) => n.toLocaleString('en-US');
try {
  await runMigrations(db);
  process.stdout.write(`importing ${folder} as ${referenceMonth} into ${db.kind}\n`);
  const importer = createCnpjImporter({ handle: db, repo: createCnpjBaseRepository(db), clock: systemClock });
  const result = await importer.run({
    folder,
    referenceMonth,
    signal: abort.signal,
    onProgress: (p) =>
      process.stdout.write(
        `${p.file}: ${count(p.fileRows)} rows | total ${count(p.rows)} | ${count(p.rowsPerSecond)} rows/s | ${Math.round(p.seconds)} s\n`,
      ),
  });
  process.stdout.write(
    `done: ${count(result.establishments)} establishments, ${count(result.companies)} companies, ` +
      `${count(result.cities)} cities, ${count(result.skipped)} rows skipped, ${Math.round(result.seconds)} s ` +
      `(base ${result.referenceMonth})\n`,
  );
} catch (err) {
  await db.close();
  fail(err);
}
await db.close();
