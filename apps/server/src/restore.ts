/**
 * `npm run restore -- <file>`: a backup into an empty DATA_DIR, checked against its manifest and
 * migrated forward (ops/restore.ts).
 */
import { megabytes, runCommand, thousands } from './ops/cli.ts';
import { restoreBackup } from './ops/restore.ts';

await runCommand('npm run restore -- <file.zip>', async (file, config) => {
  const result = await restoreBackup({ config, file });
  const { manifest } = result;
  const ledger = Object.entries(manifest.ledger)
    .map(([type, t]) => `${type} ${thousands(t.available)} available / ${thousands(t.reserved)} reserved`)
    .join(', ');
  return (
    `restored ${file} (made ${manifest.createdAt}) into ${config.dataDir} in ${result.seconds.toFixed(1)} s\n` +
    `  ${thousands(result.files)} files, ${megabytes(result.bytes)}\n` +
    `  checked: ${Object.keys(manifest.tables).length} tables' row counts and the ledger totals match the manifest\n` +
    `  ${thousands(manifest.tables.users ?? 0)} users, ${thousands(manifest.tables.contacts ?? 0)} contacts, ledger: ${ledger || 'empty'}\n` +
    `  migrations: ${result.migrationsBefore} in the backup, ${result.migrationsAfter} now\n` +
    '  start the server on this DATA_DIR: npm start\n'
  );
});
