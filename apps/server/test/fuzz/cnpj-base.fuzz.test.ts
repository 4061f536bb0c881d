import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCnpjImporter } from '../../src/modules/cnpj-base/cnpj-base.importer.ts';
import { createCnpjBaseRepository } from '../../src/modules/cnpj-base/cnpj-base.repository.ts';
import { writeCnpjSample } from '../../src/modules/cnpj-base/cnpj-base.sample.ts';
import { systemClock } from '../../src/platform/clock/clock.ts';
import { AppError } from '../../src/platform/errors/app-error.ts';
import type { RunningServer } from '../../src/server.ts';
import { callAs, userAndAdmin } from '../access.test-support.ts';
import { createTestServer, dbKind, tempDir } from '../server.test-support.ts';
import { type CnpjFolder, cnpjFolders } from './cnpj-files.test-support.ts';
import { type FuzzOutcome, fuzz } from './harness.test-support.ts';

const BUDGET = { runs: 400, timeLimitMs: Number(process.env.FUZZ_SECONDS ?? 20) * 1000, maxRssGrowthMb: 400 };
/** How an import of a bad folder ends: the folder has nothing usable, or one of its files cannot be read. */
const CODES = ['CNPJ_FOLDER_INVALID', 'CNPJ_FILE_INVALID'];

/**
 * The CNPJ base's reader (the importer `npm run cnpj:import` and the server's import job both
 * run) fed damaged folders of the Receita's files. Each import ends swapped in whole, or failed
 * with its code, the live base exactly as it was, no `_next` table left, the process alive.
 */
describe(`fuzzing the CNPJ base import (${dbKind})`, () => {
  let server: RunningServer;
  let adminToken: string;
  const repo = () => createCnpjBaseRepository(server.db);
  const importer = () => createCnpjImporter({ handle: server.db, repo: repo(), clock: systemClock });
  const one = async (text: string) => (await server.db.executeSql(text)).rows[0] as Record<string, unknown>;

  /** The live base: its row, and a digest of every establishment and company. */
  const live = async () => ({
    base: await repo().base(),
    ...(await one(`select
        (select md5(coalesce(string_agg(e::text, ',' order by cnpj), '')) from cnpj_establishments e) as establishments,
        (select md5(coalesce(string_agg(c::text, ',' order by basico), '')) from cnpj_companies c) as companies`)),
  });
  const nextTables = async () =>
    (await server.db.executeSql("select 1 from information_schema.tables where table_name like 'cnpj\\_%\\_next'")).rows
      .length;

  beforeAll(async () => {
    // A database of its own on PostgreSQL: the imports swap the live CNPJ tables.
    server = await createTestServer({ isolated: true });
    ({ adminToken } = await userAndAdmin(server));
    const first = await writeCnpjSample(path.join(tempDir('cnpj-fuzz-'), '2030-01'), { rows: 50, seed: 1, files: 1 });
    await importer().run({ folder: first.folder, referenceMonth: '2030-01' });
  });
  afterAll(async () => {
    await server?.close();
  });

  let month = 0;
  async function feed(files: CnpjFolder): Promise<FuzzOutcome> {
    const folder = tempDir('cnpj-fuzz-');
    for (const [name, bytes] of Object.entries(files)) fs.writeFileSync(path.join(folder, name), bytes);
    const before = await live();
    const referenceMonth = `2031-${String((month++ % 12) + 1).padStart(2, '0')}`;
    try {
      const result = await importer().run({ folder, referenceMonth });
      expect(await repo().base()).toMatchObject({
        referenceMonth,
        establishments: result.establishments,
        companies: result.companies,
      });
      return { accepted: true };
    } catch (err) {
      const code = err instanceof AppError ? err.code : `UNEXPECTED ${(err as Error).name}: ${(err as Error).message}`;
      expect(await live(), 'the live base is untouched').toEqual(before);
      expect(await repo().lastImport()).toMatchObject({ status: 'failed', error: expect.any(String) });
      return { refused: code.slice(0, 300) };
    } finally {
      expect(await nextTables(), 'no _next table left').toBe(0);
      fs.rmSync(folder, { recursive: true, force: true });
    }
  }

  it('every folder is imported whole or refused with its code, the live base intact', async () => {
    const result = await fuzz({ name: 'CNPJ base import', inputs: cnpjFolders, feed, codes: CODES }, BUDGET);
    expect(result.runs).toBeGreaterThan(10);
  }, 180_000);

  it("the server's import job records a damaged folder as failed, naming the file, and keeps the base", async () => {
    const sample = await writeCnpjSample(path.join(tempDir('cnpj-fuzz-'), '2032-01'), { rows: 30, seed: 2, files: 1 });
    const broken = path.join(sample.folder, 'Estabelecimentos0.zip');
    fs.writeFileSync(broken, fs.readFileSync(broken).subarray(0, 200));
    const before = await live();
    const queued = await callAs(
      server,
      { method: 'POST', url: '/api/v1/admin/cnpj-base/import', payload: { folder: sample.folder } },
      adminToken,
    );
    expect(queued.statusCode, queued.body).toBe(202);
    const { id } = queued.json() as { id: string };
    const deadline = Date.now() + 30_000;
    while ((await repo().findImport(id))?.status === 'running') {
      if (Date.now() > deadline) throw new Error('import still running after 30 s');
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await repo().findImport(id)).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('Estabelecimentos0.zip'),
    });
    expect(await live()).toEqual(before);
    const info = await callAs(server, { method: 'GET', url: '/api/v1/admin/cnpj-base' }, adminToken);
    expect(info.json()).toMatchObject({ referenceMonth: before.base!.referenceMonth, lastImport: { id } });
  }, 60_000);
});
