/**
 * The typed client (packages/api-client) cannot drift from the server: its committed types must be
 * exactly what `openapi-typescript` generates from the document this server publishes now. When
 * this fails, run `npm run api:generate` and commit src/schema.d.ts.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiDocumentText } from '../src/platform/http/docs.ts';
import type { RunningServer } from '../src/server.ts';
import { createTestServer, tempDir } from './server.test-support.ts';

const clientDir = path.resolve(import.meta.dirname, '../../../packages/api-client');
// openapi-typescript as the package's own script runs it (beside its TypeScript 5: the root has 7).
const cli = path.join(
  path.dirname(createRequire(path.join(clientDir, 'package.json')).resolve('openapi-typescript/package.json')),
  'bin/cli.js',
);

/** The first line where two texts differ, with its neighbours (a whole-file diff of 500 KB says nothing). */
function firstDifference(a: string, b: string): string | null {
  if (a === b) return null;
  const [x, y] = [a.split('\n'), b.split('\n')];
  let i = 0;
  while (i < x.length && x[i] === y[i]) i++;
  const around = (lines: string[]) => lines.slice(Math.max(0, i - 3), i + 3).join('\n');
  return `line ${i + 1}\n--- committed\n${around(x)}\n+++ generated\n${around(y)}`;
}

let server: RunningServer;
beforeAll(async () => {
  server = await createTestServer({ work: false });
});
afterAll(async () => {
  await server?.close();
});

describe('typed API client', () => {
  it('src/schema.d.ts is what openapi-typescript generates from the served document (npm run api:generate)', {
    timeout: 120_000,
  }, async () => {
    const dir = tempDir('ecoa-api-client-');
    const doc = path.join(dir, 'openapi.json');
    fs.writeFileSync(doc, apiDocumentText(server.app));
    await promisify(execFile)(process.execPath, [cli, doc, '-o', path.join(dir, 'schema.d.ts')], {
      cwd: clientDir,
    });
    const fresh = fs.readFileSync(path.join(dir, 'schema.d.ts'), 'utf8');
    const committed = fs.readFileSync(path.join(clientDir, 'src/schema.d.ts'), 'utf8');
    expect(firstDifference(committed, fresh), 'src/schema.d.ts is stale: run npm run api:generate').toBeNull();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
