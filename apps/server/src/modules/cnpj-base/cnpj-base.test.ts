/**
 * Imports into a real database (PGlite in memory, or PostgreSQL: a database of this file's own,
 * so the live CNPJ tables of other test files are never swapped under them).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKind, isolatedDatabaseUrl, openTestDb, tempDir } from '../../../test/server.test-support.ts';
import { systemClock } from '../../platform/clock/clock.ts';
import { type DbHandle, openDb } from '../../platform/db/client.ts';
import { createCnpjImporter } from './cnpj-base.importer.ts';
import { createCnpjBaseRepository } from './cnpj-base.repository.ts';
import { type CnpjSampleResult, writeCnpjSample } from './cnpj-base.sample.ts';
import { sampleBasico } from './cnpj-base.sample-data.ts';

let db: DbHandle;
let own: Awaited<ReturnType<typeof isolatedDatabaseUrl>>;

beforeAll(async () => {
  own = await isolatedDatabaseUrl();
  db = own ? await openDb({ databaseUrl: own.url, poolSize: 4 }) : await openTestDb();
});
afterAll(async () => {
  await db?.close();
  await own?.drop();
});

const repo = () => createCnpjBaseRepository(db);
const importer = () => createCnpjImporter({ handle: db, repo: repo(), clock: systemClock });
async function one<T>(text: string, values?: unknown[]): Promise<T> {
  return (await db.executeSql(text, values)).rows[0] as T;
}
const liveCounts = () =>
  one<{ establishments: number; companies: number }>(
    `select (select count(*) from cnpj_establishments)::int as establishments,
            (select count(*) from cnpj_companies)::int as companies`,
  );
const nextTables = async () =>
  (
    await db.executeSql(
      "select table_name from information_schema.tables where table_name like 'cnpj\\_%\\_next' order by 1",
    )
  ).rows.map((r) => (r as { table_name: string }).table_name);

async function expectKnown(sample: CnpjSampleResult) {
  for (const known of sample.known) {
    const row = await one<Record<string, unknown>>(
      `select e.cnpj, e.basico, c.company_name as "companyName", e.trade_name as "tradeName", e.situation, e.cnae,
              e.uf, e.city, e.phones, e.email
       from cnpj_establishments e left join cnpj_companies c on c.basico = e.basico where e.cnpj = $1`,
      [known.cnpj],
    );
    expect(row, known.cnpj).toEqual(known);
  }
}

describe(`CNPJ base import (${dbKind})`, () => {
  let first: CnpjSampleResult;

  it('imports a sample: counts, known rows exact (phones, city names, accents), the base row', async () => {
    first = await writeCnpjSample(path.join(tempDir('cnpj-'), '2025-10'), { rows: 1_500, seed: 3 });
    const result = await importer().run({ folder: first.folder, referenceMonth: '2025-10' });
    expect(result).toMatchObject({ establishments: 1_500, companies: first.companies, cities: 11, skipped: 0 });
    expect(await liveCounts()).toEqual({ establishments: 1_500, companies: first.companies });
    await expectKnown(first);
    // The fixed cases are among the known rows: all phones, an invalid DDD and fax dropped, none at all.
    const [c0, c1, c2] = [0, 1, 2].map((i) => first.known.find((k) => k.cnpj.startsWith(`${sampleBasico(3, i)}0001`)));
    expect(c0).toMatchObject({ city: 'SÃO PAULO', uf: 'SP' });
    expect(c0!.phones).toHaveLength(3);
    expect(c0!.tradeName).toContain('; B "DO ZÉ"');
    expect(c1!.phones).toHaveLength(1);
    expect(c2).toMatchObject({ phones: [], tradeName: null, email: null });
    const info = await repo().base();
    expect(info).toMatchObject({ referenceMonth: '2025-10', establishments: 1_500, companies: first.companies });
    expect(await repo().lastImport()).toMatchObject({ status: 'done', rows: 1_500 + first.companies });
    expect(await nextTables()).toEqual([]);
    const keys = await db.executeSql(
      "select indexname from pg_indexes where tablename in ('cnpj_companies', 'cnpj_establishments') order by 1",
    );
    expect(keys.rows.map((r) => (r as { indexname: string }).indexname)).toEqual([
      'cnpj_companies_pkey',
      'cnpj_establishments_pkey',
    ]);
  });

  it('a second import swaps in whole: readers see the old base until the swap', async () => {
    const second = await writeCnpjSample(path.join(tempDir('cnpj-'), 'base'), { rows: 900, seed: 4 });
    let duringLoad: unknown;
    const result = await importer().run({
      folder: second.folder,
      referenceMonth: '2025-11',
      beforeSwap: async () => {
        duringLoad = {
          live: await liveCounts(),
          next: await one('select count(*)::int as n from cnpj_establishments_next'),
          base: (await repo().base())?.referenceMonth,
          old: await one('select count(*)::int as n from cnpj_establishments where cnpj = $1', [first.known[0]!.cnpj]),
        };
      },
    });
    expect(duringLoad).toEqual({
      live: { establishments: 1_500, companies: first.companies },
      next: { n: 900 },
      base: '2025-10',
      old: { n: 1 },
    });
    expect(result.referenceMonth).toBe('2025-11');
    expect(await liveCounts()).toEqual({ establishments: 900, companies: second.companies });
    expect(await repo().base()).toMatchObject({ referenceMonth: '2025-11', establishments: 900 });
    await expectKnown(second);
    expect(
      await one('select count(*)::int as n from cnpj_establishments where cnpj = $1', [first.known[0]!.cnpj]),
    ).toEqual({
      n: 0,
    });
    expect(await nextTables()).toEqual([]);
  });

  it('an interrupted import (a corrupt zip) fails, leaves the live base untouched, and runs again once fixed', async () => {
    const sample = await writeCnpjSample(path.join(tempDir('cnpj-'), '2025-12'), { rows: 600, seed: 5 });
    const broken = path.join(sample.folder, 'Estabelecimentos7.zip');
    const good = fs.readFileSync(broken);
    fs.writeFileSync(broken, good.subarray(0, Math.floor(good.length / 2)));
    const before = await liveCounts();
    await expect(importer().run({ folder: sample.folder, referenceMonth: '2025-12' })).rejects.toThrow(/zip/);
    expect(await liveCounts()).toEqual(before);
    expect(await repo().base()).toMatchObject({ referenceMonth: '2025-11' });
    expect(await repo().lastImport()).toMatchObject({ status: 'failed', error: expect.stringMatching(/zip/) });
    expect(await nextTables()).toEqual([]);

    // A process that died mid-import leaves a 'running' row: the next import marks it failed.
    const abandoned = await repo().createImport({ folder: '/x', referenceMonth: '2025-12', startedAt: new Date() });
    fs.writeFileSync(broken, good);
    await importer().run({ folder: sample.folder, referenceMonth: '2025-12' });
    expect(await liveCounts()).toEqual({ establishments: 600, companies: sample.companies });
    expect(await repo().findImport(abandoned)).toMatchObject({ status: 'failed' });
    await expectKnown(sample);
  });

  it.runIf(dbKind === 'postgres')('an import asked while another holds the lock ends failed, not running', async () => {
    const holder = await repo().tryLockImports();
    try {
      const id = await repo().createImport({ folder: '/x', referenceMonth: '2026-02', startedAt: new Date() });
      const sample = await writeCnpjSample(path.join(tempDir('cnpj-'), 'busy'), { rows: 10, seed: 7, files: 1 });
      await expect(
        importer().run({ folder: sample.folder, referenceMonth: '2026-02', importId: id }),
      ).rejects.toMatchObject({ code: 'CNPJ_IMPORT_RUNNING' });
      expect(await repo().findImport(id)).toMatchObject({
        status: 'failed',
        error: expect.stringMatching(/andamento/),
      });
    } finally {
      await holder!.release();
    }
  });

  it('reads the extracted files as well as the zips', async () => {
    const sample = await writeCnpjSample(path.join(tempDir('cnpj-'), 'zips'), { rows: 300, seed: 6, files: 2 });
    const extracted = tempDir('cnpj-extracted-');
    const { openZip } = await import('../../platform/archive/zip.ts');
    for (const name of fs.readdirSync(sample.folder)) {
      const zip = await openZip(path.join(sample.folder, name));
      const entry = zip.entries[0]!;
      fs.writeFileSync(path.join(extracted, entry.name), await zip.readEntry(entry));
    }
    const result = await importer().run({ folder: extracted, referenceMonth: '2026-01' });
    expect(result).toMatchObject({ establishments: 300, companies: sample.companies });
    await expectKnown(sample);
  });
});
