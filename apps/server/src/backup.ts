/**
 * `npm run backup -- <file>`: the PGlite database and every file of DATA_DIR in one ZIP
 * (ops/backup.ts). The server must be stopped; on PostgreSQL use pg_dump (README).
 */
import { createBackup } from './ops/backup.ts';
import { megabytes, runCommand, thousands } from './ops/cli.ts';

await runCommand('npm run backup -- <file.zip>', async (file, config) => {
  const result = await createBackup({ config, file });
  const { manifest } = result;
  const folders = Object.entries(manifest.files)
    .map(([name, f]) => `${name} ${thousands(f.files)} files ${megabytes(f.bytes)}`)
    .join(', ');
  return (
    `backup written: ${result.file} (${megabytes(result.bytes)} in ${result.seconds.toFixed(1)} s)\n` +
    `  database: ${manifest.migrations} migrations, ${thousands(manifest.tables.users ?? 0)} users, ` +
    `${thousands(manifest.tables.ledger_entries ?? 0)} ledger entries, ${thousands(manifest.tables.contacts ?? 0)} contacts\n` +
    `  DATA_DIR: ${folders}\n` +
    (result.skipped.length > 0 ? `  skipped (not regular files): ${result.skipped.join(', ')}\n` : '') +
    '  it holds every account and the auth secret: keep it private.\n'
  );
});
