import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILE_ERROR_CODES } from '../../src/modules/lists/parser/errors.ts';
import type { RunningServer } from '../../src/server.ts';
import { bearer, makeAdmin, signUpAndSignIn } from '../factories.test-support.ts';
import { multipart } from '../multipart.test-support.ts';
import { createTestServer, dbKind } from '../server.test-support.ts';
import {
  baseCnpjs,
  type CnpjSheet,
  cnpjSheet,
  expectedCounts,
  sheetCsv,
  sheetXlsx,
} from './cnpj-sheets.test-support.ts';
import { type FuzzOutcome, fuzz } from './harness.test-support.ts';
import { mutated, randomBytes } from './mutations.test-support.ts';

const BUDGET = { runs: 400, timeLimitMs: Number(process.env.FUZZ_SECONDS ?? 20) * 1000, maxRssGrowthMb: 400 };
/** The enrichment's own refusals, and the lists' reader's file errors (its spreadsheets go through it). */
const CODES = [
  ...FILE_ERROR_CODES,
  'NO_CNPJ_COLUMN',
  'NO_VALID_CNPJ',
  'ENRICHMENT_TOO_LARGE',
  'VALIDATION_FAILED',
  'TEXT_INVALID_CHARACTERS',
];
const CREDITS = 10_000_000;

type Input =
  | { kind: 'file'; bytes: Buffer; fileName: string; name?: string; sheet?: CnpjSheet }
  | { kind: 'json'; body: unknown };

const encoded = (text: string, encoding: string) =>
  encoding === 'utf-8-bom'
    ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)])
    : encoding === 'utf-16le-bom'
      ? Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])
      : Buffer.from(text, encoding === 'windows-1252' ? 'latin1' : 'utf8');

const csvInput = fc
  .tuple(
    cnpjSheet,
    fc.constantFrom(';', ',', '\t'),
    fc.constantFrom('utf-8', 'utf-8-bom', 'utf-16le-bom', 'windows-1252'),
  )
  .map(([sheet, separator, encoding]) => ({ sheet, bytes: encoded(sheetCsv(sheet, separator), encoding) }));
const xlsxInput = cnpjSheet.map((sheet) => ({ sheet, bytes: sheetXlsx(sheet) }));

const fileName = fc.constantFrom(
  'cnpjs.csv',
  'empresas.xlsx',
  '',
  `${'😀'.repeat(150)}.csv`,
  'a"b.csv',
  '../../etc/passwd',
  'planilha\u0007.csv',
);
const listName = fc.option(
  fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('x'.repeat(121), '\u0000nome', '\ud800', '  ')),
  { nil: undefined },
);

/** Sheets as they come (with what a correct reading finds), mutated bytes, random bytes, JSON bodies. */
const inputs: fc.Arbitrary<Input> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(fc.oneof(csvInput, xlsxInput), listName)
      .map(([s, name]): Input => ({ kind: 'file', ...s, fileName: 'cnpjs.csv', name })),
  },
  {
    weight: 4,
    arbitrary: fc
      .tuple(mutated(fc.oneof(csvInput, xlsxInput).map((s) => s.bytes)), fileName)
      .map(([bytes, f]): Input => ({ kind: 'file', bytes, fileName: f })),
  },
  { weight: 1, arbitrary: randomBytes.map((bytes): Input => ({ kind: 'file', bytes, fileName: 'x.csv' })) },
  {
    weight: 2,
    arbitrary: fc
      .record({
        name: fc.oneof(fc.string({ maxLength: 20 }), fc.constant('')),
        cnpjs: cnpjSheet.map((s) => s.rows.map((r) => r.cnpj.text)),
        onlyActive: fc.oneof(fc.boolean(), fc.constant('sim' as unknown as boolean)),
      })
      .map((body): Input => ({ kind: 'json', body })),
  },
);

/** The enrichment upload (`POST /api/v1/enrichments`, multipart or JSON) fed hostile input. */
describe(`fuzzing the enrichment upload (${dbKind})`, () => {
  let server: RunningServer;
  let token: string;
  let userId: string;

  beforeAll(async () => {
    // Its own database on PostgreSQL: the CNPJ base seeded here is this file's.
    server = await createTestServer({ isolated: true });
    const sql = (text: string, params: unknown[] = []) => server.db.executeSql(text, params);
    const base = baseCnpjs();
    await sql(
      `insert into cnpj_companies (basico, company_name)
       select distinct left(c, 8), 'EMPRESA ' || left(c, 8) from unnest($1::text[]) c`,
      [base.map((b) => b.cnpj)],
    );
    for (const b of base) {
      await sql(
        `insert into cnpj_establishments (cnpj, basico, situation, uf, city, phones) values ($1, left($1, 8), 2, 'SP', 'SÃO PAULO', $2)`,
        [b.cnpj, b.phones],
      );
    }
    await sql(`insert into cnpj_base (id, reference_month, establishments, companies, imported_at)
      values (1, '2026-10', ${base.length}, ${base.length}, now())`);
    const account = await signUpAndSignIn(server);
    ({ token } = account);
    userId = account.user.id;
    await sql(`update users set permissions_enriched = '{all}' where id = $1`, [userId]);
    const admin = await signUpAndSignIn(server);
    await makeAdmin(server, admin.user.id);
    await server.modules.ledger.adjust({
      userId,
      type: 'ENRICHED',
      amount: CREDITS,
      actorUserId: admin.user.id,
      reason: 'fuzz',
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  async function feed(input: Input): Promise<FuzzOutcome> {
    let res: Awaited<ReturnType<RunningServer['app']['inject']>>;
    if (input.kind === 'json') {
      res = await server.app.inject({
        method: 'POST',
        url: '/api/v1/enrichments',
        payload: input.body as object,
        headers: bearer(token),
      });
    } else {
      const form = multipart([
        ...(input.name === undefined ? [] : [{ name: 'name', value: input.name }]),
        { name: 'file', filename: input.fileName, content: input.bytes },
      ]);
      res = await server.app.inject({
        method: 'POST',
        url: '/api/v1/enrichments',
        payload: form.payload,
        headers: { ...form.headers, ...bearer(token) },
      });
    }
    const expected = input.kind === 'file' && input.sheet ? expectedCounts(input.sheet) : undefined;
    if (res.statusCode !== 201) {
      const code = (res.json() as { code?: string }).code ?? 'NO_CODE';
      if (res.statusCode >= 500) return { refused: `HTTP_${res.statusCode}_${code}` };
      // A clean sheet with a valid CNPJ is never refused (a bad name aside).
      if (expected && expected.valid > 0 && code !== 'VALIDATION_FAILED' && code !== 'TEXT_INVALID_CHARACTERS')
        return { refused: `REFUSED_A_CLEAN_SHEET_${code}` };
      return { refused: code };
    }
    const created = (
      await server.app.inject({
        method: 'GET',
        url: `/api/v1/enrichments/${res.json().id}`,
        headers: bearer(token),
      })
    ).json();
    expect(created.total).toBe(created.valid + created.invalid + created.duplicates);
    expect(created.credits.reserved).toBe(created.valid);
    if (expected) expect(created).toMatchObject(expected);
    return { accepted: true };
  }

  it('every upload is enriched or refused with its code; every credit settles', async () => {
    const result = await fuzz({ name: 'enrichment upload', inputs, feed, codes: CODES }, BUDGET);
    expect(result.runs).toBeGreaterThan(10);

    // Every accepted enrichment finishes, charging only its hits with a phone.
    const sql = async (text: string, params: unknown[] = []) =>
      (await server.db.executeSql(text, params)).rows as Record<string, number>[];
    const deadline = Date.now() + 60_000;
    const processing = async () =>
      (await sql(`select count(*)::int as n from enrichments where status = 'processing'`))[0]?.n;
    while ((await processing()) !== 0) {
      if (Date.now() > deadline) throw new Error('enrichments still processing after 60 s');
      await new Promise((r) => setTimeout(r, 100));
    }
    const rows = await sql(
      `select status, valid, with_phone as "withPhone", credits_reserved as reserved, credits_used as used,
              credits_released as released from enrichments where user_id = $1`,
      [userId],
    );
    let used = 0;
    for (const row of rows) {
      expect(row).toMatchObject({ status: 'ready', reserved: row.valid, used: row.withPhone });
      expect(row.used! + row.released!).toBe(row.reserved);
      used += row.used!;
    }
    const [ledger] = await sql(
      `select (select available::int from credit_balances where user_id = $1 and type = 'ENRICHED') as available,
              (select reserved::int from credit_balances where user_id = $1 and type = 'ENRICHED') as reserved,
              (select sum(amount)::int from ledger_entries where user_id = $1 and type = 'ENRICHED') as amounts,
              (select sum(reserved_delta)::int from ledger_entries where user_id = $1 and type = 'ENRICHED') as reservations`,
      [userId],
    );
    expect(ledger).toEqual({ available: CREDITS - used, reserved: 0, amounts: CREDITS - used, reservations: 0 });
    console.log(`[fuzz] enrichment upload: ${rows.length} enrichments settled, ${used} credits captured`);
  }, 180_000);
});
