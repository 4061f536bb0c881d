/**
 * `npm run api:generate` (first step): the OpenAPI document, built in-process from the app's
 * routes on an in-memory database (no server running, no environment read), written to the path
 * given; the typed client's types are then generated from it (packages/api-client).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from './platform/config/config.ts';
import { openDb } from './platform/db/client.ts';
import { apiDocumentText } from './platform/http/docs.ts';
import { createLogger } from './platform/logger.ts';
import { startServer } from './server.ts';

const out = process.argv[2];
if (!out) {
  process.stderr.write('usage: tsx apps/server/src/openapi.ts <file.json>\n');
  process.exit(2);
}
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ecoa-openapi-'));
const db = await openDb({ pgliteDir: 'memory://' });
try {
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const server = await startServer({ config, logger: createLogger('silent'), listen: false, work: false, db });
  try {
    fs.writeFileSync(out, apiDocumentText(server.app));
  } finally {
    await server.close();
  }
} finally {
  await db.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
process.stdout.write(`OpenAPI document written to ${out}\n`);
