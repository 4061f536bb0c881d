/** `/api/v1/admin/cnpj-base` through the real server: state, import job, bad folder, access. */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs, userAndAdmin } from '../../../test/access.test-support.ts';
import { createTestServer, dbKind, tempDir } from '../../../test/server.test-support.ts';
import type { RunningServer } from '../../server.ts';
import { writeCnpjSample } from './cnpj-base.sample.ts';

let server: RunningServer;
let tokens: { userToken: string; adminToken: string };

beforeAll(async () => {
  // A database of its own on PostgreSQL: the import swaps the live CNPJ tables.
  server = await createTestServer({ isolated: true });
  tokens = await userAndAdmin(server);
});
afterAll(async () => {
  await server?.close();
});

const get = (token?: string) => callAs(server, { method: 'GET', url: '/api/v1/admin/cnpj-base' }, token);
const post = (payload: unknown, token?: string) =>
  callAs(server, { method: 'POST', url: '/api/v1/admin/cnpj-base/import', payload }, token);

describe(`admin CNPJ base routes (${dbKind})`, () => {
  it('GET answers the empty base, POST queues an import that completes, GET then shows it', async () => {
    const empty = await get(tokens.adminToken);
    expect(empty.statusCode, empty.body).toBe(200);
    expect(empty.json()).toEqual({
      referenceMonth: null,
      establishments: 0,
      companies: 0,
      importedAt: null,
      lastImport: null,
    });

    const sample = await writeCnpjSample(path.join(tempDir('cnpj-api-'), '2025-09'), { rows: 400, seed: 9 });
    const queued = await post({ folder: sample.folder }, tokens.adminToken);
    expect(queued.statusCode, queued.body).toBe(202);
    const { id } = queued.json() as { id: string };

    let body: Record<string, unknown> = {};
    for (let i = 0; i < 100; i++) {
      body = (await get(tokens.adminToken)).json();
      if ((body.lastImport as { status: string }).status !== 'running') break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(body).toMatchObject({
      referenceMonth: '2025-09',
      establishments: 400,
      companies: sample.companies,
      importedAt: expect.any(String),
      lastImport: {
        id,
        folder: sample.folder,
        referenceMonth: '2025-09',
        status: 'done',
        rows: 400 + sample.companies,
        error: null,
        finishedAt: expect.any(String),
      },
    });
  });

  it('400 CNPJ_FOLDER_INVALID for a missing folder or one without Estabelecimentos files; bad month 400', async () => {
    const missing = await post({ folder: '/nonexistent/cnpj' }, tokens.adminToken);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().code).toBe('CNPJ_FOLDER_INVALID');
    const emptyFolder = await post({ folder: tempDir('cnpj-empty-') }, tokens.adminToken);
    expect(emptyFolder.statusCode).toBe(400);
    expect(emptyFolder.json().code).toBe('CNPJ_FOLDER_INVALID');
    const badMonth = await post({ folder: tempDir(), referenceMonth: '2025-13' }, tokens.adminToken);
    expect(badMonth.statusCode).toBe(400);
  });

  it('401 anonymous, 403 for a regular user', async () => {
    expect((await get()).statusCode).toBe(401);
    expect((await get(tokens.userToken)).statusCode).toBe(403);
    expect((await post({ folder: '/tmp' }, tokens.userToken)).statusCode).toBe(403);
  });
});
