/**
 * `npm run db:move -- postgres://…`: copies the PGlite in DATA_DIR into an empty PostgreSQL
 * database and checks the copy (ops/db-move.ts). The server must be stopped.
 */
import { runCommand, thousands } from './ops/cli.ts';
import { moveToPostgres } from './ops/db-move.ts';

await runCommand('npm run db:move -- postgres://user:password@host:5432/database', async (targetUrl, config) => {
  const result = await moveToPostgres({ config, targetUrl, onProgress: (line) => process.stdout.write(`  ${line}\n`) });
  const { facts } = result;
  const rows = Object.values(facts.tables).reduce((sum, n) => sum + Number(n), 0);
  return (
    `moved to PostgreSQL in ${result.seconds.toFixed(1)} s: ${result.tables} tables, ${thousands(rows)} rows, ` +
    `${result.sequences} sequences, ${thousands(result.jobs)} jobs in ${result.queues} queues\n` +
    `  checked: every table's row count and the ledger totals (${Object.keys(facts.ledger).length} credit types) match\n` +
    `  the files in ${config.dataDir} (uploads, audios, avatars, auth-secret) stay where they are: keep DATA_DIR\n\n` +
    'Now start Ecoa on PostgreSQL with:\n' +
    `  DATABASE_URL=${targetUrl}\n` +
    'and you can add workers: npm run worker (same DATABASE_URL and DATA_DIR).\n' +
    `The PGlite in ${config.dataDir}/pglite is left untouched; remove it once you are happy.\n`
  );
});
