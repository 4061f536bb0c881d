import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpAndSignIn } from '../../../test/factories.test-support.ts';
import { injectAs, uploadAs } from '../../../test/http.test-support.ts';
import { waitForListImported } from '../../../test/lists.test-support.ts';
import { multipart } from '../../../test/multipart.test-support.ts';
import { createTestServer, dbKind } from '../../../test/server.test-support.ts';
import { sharedStringsXml, sheetXml, xlsxBuffer } from '../../../test/xlsx-builder.test-support.ts';
import { sharedStringsBomb } from '../../../test/zip-writer.test-support.ts';
import type { RunningServer } from '../../server.ts';
import { EXCEL_BR_MAPPING, fixtureBytes } from './fixtures.test-support.ts';

const fixture = fixtureBytes;

describe(`contact lists API (${dbKind})`, () => {
  let server: RunningServer;
  let token: string;
  let other: string;

  beforeAll(async () => {
    server = await createTestServer();
    token = (await signUpAndSignIn(server)).token;
    other = (await signUpAndSignIn(server)).token;
  });
  afterAll(async () => {
    await server?.close();
  });

  async function upload(t: string, file: Buffer, filename: string, fields: Record<string, string> = {}) {
    const form = multipart([
      ...Object.entries(fields).map(([name, value]) => ({ name, value })),
      { name: 'file', filename, content: file },
    ]);
    return uploadAs(server, t, '/api/v1/lists', form);
  }

  async function importFixture(t: string, name: string, fields: Record<string, string> = {}) {
    const res = await upload(t, fixture(name), name, fields);
    expect(res.statusCode, res.body).toBe(201);
    return waitForListImported(server, t, res.json().id);
  }

  const countRows = async (table: string, listId: string) => {
    const { rows } = await server.db.executeSql(`select count(*)::int as n from ${table} where list_id = $1`, [listId]);
    return (rows[0] as { n: number }).n;
  };

  const uploadsLeft = () => {
    const dir = path.join(server.config.dataDir, 'uploads');
    return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  };

  it('imports a Windows-1252 `;` Excel export: counts, accents, custom fields', async () => {
    const list = await importFixture(token, 'excel-br-windows1252.csv', { name: 'Clientes SP' });
    expect(list).toMatchObject({
      name: 'Clientes SP',
      status: 'ready',
      progress: 100,
      total: 10,
      valid: 7,
      mobiles: 5,
      landlines: 2,
      invalid: 2,
      duplicates: 1,
      optedOut: 0,
      fields: ['empresa', 'cidade'],
      fileName: 'excel-br-windows1252.csv',
    });
    expect(list.error).toBeUndefined();

    const page = await injectAs(server, token, {
      method: 'GET',
      url: `/api/v1/lists/${list.id}/contacts?page=1&pageSize=50`,
    });
    expect(page.statusCode).toBe(200);
    const contacts = page.json();
    expect(contacts.total).toBe(7);
    expect(contacts.items).toContainEqual({
      rowNumber: 2,
      phone: '+5511912345678',
      kind: 'mobile',
      name: 'João da Silva',
      fields: { empresa: 'Padaria Pão Quente', cidade: 'São Paulo' },
      optedOut: false,
    });
    expect(contacts.items.map((c: { phone: string }) => c.phone)).toContain('+5531998765432');
    expect(contacts.items.find((c: { name: string }) => c.name === 'Maria Conceição').fields.empresa).toBe(
      'Açougue Boi; Cia',
    );
    expect(await countRows('contacts', list.id)).toBe(7);
    // The job removes the uploaded file once it is done with it.
    await expect.poll(uploadsLeft).toEqual([]);
  });

  it('exports the invalid rows with the reason, and the valid contacts, as Excel-ready CSV', async () => {
    const list = await importFixture(token, 'excel-br-windows1252.csv');
    const invalid = await injectAs(server, token, {
      method: 'GET',
      url: `/api/v1/lists/${list.id}/export?kind=invalid`,
    });
    expect(invalid.statusCode).toBe(200);
    expect(invalid.headers['content-type']).toContain('text/csv');
    expect(invalid.headers['content-disposition']).toContain('attachment');
    const text = invalid.body;
    expect(text.startsWith('\ufeff')).toBe(true);
    const lines = text.slice(1).trim().split('\r\n');
    expect(lines[0]).toBe('linha;motivo;Nome;Telefone;Empresa;Cidade');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toBe('7;DDD inexistente;Fábio Gonçalves;(20) 91234-5678;Empresa X;Nenhuma');
    expect(lines[2]).toBe('8;Contém letras ou símbolos;Luíza Brandão;sem telefone;Empresa Y;Curitiba');

    const valid = await injectAs(server, token, { method: 'GET', url: `/api/v1/lists/${list.id}/export?kind=valid` });
    const validLines = valid.body.slice(1).trim().split('\r\n');
    expect(validLines[0]).toBe('telefone;tipo;nome;empresa;cidade');
    expect(validLines).toHaveLength(8);
    expect(validLines).toContain('5511912345678;celular;João da Silva;Padaria Pão Quente;São Paulo');
    expect(validLines).toContain('5511987654321;celular;Maria Conceição;"Açougue Boi; Cia";Guarulhos');
  });

  it('neutralises spreadsheet formulas in exports', async () => {
    const list = await importFixture(token, 'utf8-bom-comma.csv');
    expect(list).toMatchObject({ status: 'ready', total: 4, valid: 3, invalid: 1 });
    const valid = (await injectAs(server, token, { method: 'GET', url: `/api/v1/lists/${list.id}/export?kind=valid` }))
      .body;
    expect(valid).toContain(`'=HYPERLINK("`.replace('"', '""'));
    expect(valid).toContain(";'@SUM(1)");
    expect(valid).not.toMatch(/;=|;@|;\+|;-/);
    expect(valid).toContain('"ACME ""Brasil"""');
  });

  it('keeps tabs, backslashes, line breaks, quotes and emoji intact through the bulk load (a control character is dropped)', async () => {
    const csv =
      'nome;telefone;obs\n' +
      '"Tab\there";11912345678;"back\\slash \\N"\n' +
      '"Linha\nnova";21987654321;"aspas ""duplas"" e emoji 😀 \u0001"\n' +
      'Zé;31987654321;\n';
    const res = await upload(token, Buffer.from(csv), 'tricky.csv');
    expect(res.statusCode, res.body).toBe(201);
    const list = await waitForListImported(server, token, res.json().id);
    expect(list).toMatchObject({ status: 'ready', valid: 3 });
    const { items } = (
      await injectAs(server, token, { method: 'GET', url: `/api/v1/lists/${list.id}/contacts` })
    ).json();
    expect(items).toEqual([
      expect.objectContaining({ phone: '+5511912345678', name: 'Tab\there', fields: { obs: 'back\\slash \\N' } }),
      expect.objectContaining({
        phone: '+5521987654321',
        name: 'Linha\nnova',
        fields: { obs: 'aspas "duplas" e emoji 😀' },
      }),
      expect.objectContaining({ phone: '+5531987654321', name: 'Zé', fields: null }),
    ]);
  });

  it('imports an XLSX: numeric cells, rich text, formulas, dates as custom fields', async () => {
    const list = await importFixture(token, 'contacts.xlsx', { name: 'Planilha' });
    expect(list).toMatchObject({
      status: 'ready',
      total: 5,
      valid: 3,
      mobiles: 2,
      landlines: 1,
      invalid: 1,
      duplicates: 1,
      fields: ['empresa', 'nascimento', 'valor'],
    });
    const contacts = (
      await injectAs(server, token, { method: 'GET', url: `/api/v1/lists/${list.id}/contacts` })
    ).json();
    expect(contacts.items[0]).toMatchObject({
      phone: '+5511912345678',
      name: 'Ana Souza',
      fields: { empresa: 'Ótica Boa Vista', nascimento: '17/05/1990', valor: '150.5' },
    });
  });

  it('uses the mapping the user chose (no header, tab separated)', async () => {
    const mapping = { hasHeader: false, phone: 0, name: 1, fields: [{ column: 2, key: 'uf' }] };
    const list = await importFixture(token, 'no-header-tab.csv', { mapping: JSON.stringify(mapping) });
    expect(list).toMatchObject({ status: 'ready', total: 4, valid: 3, invalid: 1, fields: ['uf'] });
    const contacts = (
      await injectAs(server, token, { method: 'GET', url: `/api/v1/lists/${list.id}/contacts` })
    ).json();
    expect(contacts.items).toContainEqual(
      expect.objectContaining({ phone: '+5511912345678', name: 'Ana Paula', fields: { uf: 'SP' } }),
    );
  });

  it('previews a file for the mapping step', async () => {
    const form = multipart([{ name: 'file', filename: 'x.csv', content: fixture('excel-br-windows1252.csv') }]);
    const res = await uploadAs(server, token, '/api/v1/lists/preview', form);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ kind: 'csv', encoding: 'windows-1252', delimiter: ';', hasHeader: true });
    expect(body.mapping).toEqual(EXCEL_BR_MAPPING);
    expect(body.columns.map((c: { header: string }) => c.header)).toEqual(['Nome', 'Telefone', 'Empresa', 'Cidade']);
    expect(body.rows[0]).toEqual(['João da Silva', '(11) 91234-5678', 'Padaria Pão Quente', 'São Paulo']);
    expect(uploadsLeft()).toEqual([]);

    const noPhone = multipart([{ name: 'file', filename: 'x.csv', content: fixture('no-phone.csv') }]);
    const res2 = await uploadAs(server, token, '/api/v1/lists/preview', noPhone);
    expect(res2.statusCode).toBe(200);
    expect(res2.json().mapping).toBeNull();
  });

  it('refuses bad files with a clear code and leaves nothing behind', async () => {
    const { token: fresh } = await signUpAndSignIn(server);
    const cases: [string, Buffer, string, number][] = [
      ['empty.csv', fixture('empty.csv'), 'EMPTY_FILE', 400],
      ['photo.csv', fixture('image.png.csv'), 'UNSUPPORTED_FILE_TYPE', 400],
      ['old.xls', fixture('legacy.xls'), 'LEGACY_XLS', 400],
      ['fake.xlsx', fixture('zip-not-xlsx.xlsx'), 'XLSX_BROKEN', 400],
      ['no-phone.csv', fixture('no-phone.csv'), 'NO_PHONE_COLUMN', 400],
      ['only-header.csv', fixture('only-header.csv'), 'NO_DATA_ROWS', 400],
      ['ragged.csv', fixture('ragged.csv'), 'CSV_RAGGED', 400],
      ['quote.csv', fixture('unclosed-quote.csv'), 'CSV_MALFORMED', 400],
    ];
    for (const [name, content, code, status] of cases) {
      const res = await upload(fresh, content, name);
      expect(res.statusCode, name).toBe(status);
      expect(res.json().code, name).toBe(code);
      expect(res.json().message, name).toMatch(/\w/);
    }
    const badMapping = await upload(fresh, fixture('no-header-tab.csv'), 'x.csv', { mapping: '{"phone": 9}' });
    expect(badMapping.json().code).toBe('INVALID_MAPPING');
    const outOfRange = await upload(fresh, fixture('no-header-tab.csv'), 'x.csv', {
      mapping: JSON.stringify({ hasHeader: false, phone: 7, name: null, fields: [] }),
    });
    expect(outOfRange.json().code).toBe('NO_PHONE_COLUMN');
    const noFile = multipart([{ name: 'name', value: 'x' }]);
    const res = await uploadAs(server, fresh, '/api/v1/lists', noFile);
    expect(res.json().code).toBe('FILE_REQUIRED');
    const json = await injectAs(server, fresh, { method: 'POST', url: '/api/v1/lists', payload: { name: 'x' } });
    expect(json.statusCode).toBe(400);
    expect(json.json().code).toBe('FILE_REQUIRED');

    const lists = (await injectAs(server, fresh, { method: 'GET', url: '/api/v1/lists' })).json();
    expect(lists.total).toBe(0);
    expect(uploadsLeft()).toEqual([]);
  });

  it('a broken XLSX is refused at once or fails its import, never half-imported', async () => {
    const res = await upload(token, fixture('broken-truncated.xlsx'), 'broken.xlsx');
    if (res.statusCode === 201) {
      const list = await waitForListImported(server, token, res.json().id);
      expect(list).toMatchObject({ status: 'failed', errorCode: 'XLSX_BROKEN', valid: 0 });
      expect(await countRows('contacts', list.id)).toBe(0);
    } else {
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('XLSX_BROKEN');
    }
  });

  it('refuses an XLSX bomb (5 MB-class, shared strings inflating to ~2 GB) at once with XLSX_TOO_LARGE', async () => {
    const { compressed, size } = sharedStringsBomb(2000, { crc: false });
    const rows =
      '<row r="1"><c r="A1" t="inlineStr"><is><t>nome</t></is></c><c r="B1" t="inlineStr"><is><t>telefone</t></is></c></row>' +
      '<row r="2"><c r="A2" t="s"><v>0</v></c><c r="B2"><v>11912345678</v></c></row>';
    const bomb = xlsxBuffer({
      sheets: [{ xml: sheetXml(rows) }],
      parts: { 'xl/sharedStrings.xml': { method: 8, compressed, size } },
    });
    expect(size).toBeGreaterThan(2_000_000_000);
    const { token: fresh } = await signUpAndSignIn(server);
    const res = await upload(fresh, bomb, 'bomba.xlsx');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'XLSX_TOO_LARGE', details: { limit: 'ratio', max: 200 } });
    expect(res.json().message).toMatch(/cresce mais de 200 vezes ao descompactar.*CSV/);
    expect((await injectAs(server, fresh, { method: 'GET', url: '/api/v1/lists' })).json().total).toBe(0);
    expect(uploadsLeft()).toEqual([]);
  });

  /** An upload taken (201) whose import then fails with XLSX_TOO_LARGE and these details, keeping no contact. */
  async function importFailsTooLarge(res: LightMyRequestResponse, errorDetails: { limit: string; max: number }) {
    expect(res.statusCode, res.body).toBe(201);
    const list = await waitForListImported(server, token, res.json().id);
    expect(list).toMatchObject({ status: 'failed', errorCode: 'XLSX_TOO_LARGE', errorDetails, valid: 0 });
    expect(await countRows('contacts', list.id)).toBe(0);
    return list;
  }

  it('the same bomb padded to pass the upload check fails its import quickly with XLSX_TOO_LARGE', async () => {
    const { compressed, size } = sharedStringsBomb(2000, { crc: false });
    // Junk inside the entry makes the declared ratio 200: only the counted ratio can tell.
    const padded = Buffer.concat([compressed, Buffer.alloc(Math.ceil(size / 200) - compressed.length, 0x55)]);
    const rows =
      '<row r="1"><c r="A1" t="inlineStr"><is><t>nome</t></is></c><c r="B1" t="inlineStr"><is><t>telefone</t></is></c></row>' +
      '<row r="2"><c r="A2" t="s"><v>0</v></c><c r="B2"><v>11912345678</v></c></row>';
    const bomb = xlsxBuffer({
      sheets: [{ xml: sheetXml(rows) }],
      parts: { 'xl/sharedStrings.xml': { method: 8, compressed: padded, size } },
    });
    await importFailsTooLarge(await upload(token, bomb, 'bomba.xlsx'), { limit: 'ratio', max: 200 });
  });

  it('an XLSX that passes a limit after its first rows fails its import with that code, not IMPORT_FAILED', async () => {
    // The sample only reads the strings its rows use; the import reads them all and meets a
    // 70,000-character one (Excel's cells hold 32,767).
    const strings = ['nome', 'telefone', ...Array.from({ length: 60 }, (_, i) => `Pessoa ${i}`), 'x'.repeat(70_000)];
    let rows = '<row r="1"><c t="s"><v>0</v></c><c t="s"><v>1</v></c></row>';
    for (let i = 0; i < 60; i++)
      rows += `<row r="${i + 2}"><c t="s"><v>${i + 2}</v></c><c><v>${11_912_340_000 + i}</v></c></row>`;
    const book = xlsxBuffer({ sheets: [{ xml: sheetXml(rows) }], sharedStrings: sharedStringsXml(strings) });
    const list = await importFailsTooLarge(await upload(token, book, 'longa.xlsx'), {
      limit: 'cellChars',
      max: 32_767,
    });
    expect(list.error).toMatch(/célula com mais de 32\.767 caracteres.*CSV/);
  });

  it('a file that turns ragged after its first rows fails with no contacts left', async () => {
    let csv = 'nome;telefone;cidade\n';
    for (let i = 0; i < 100; i++) csv += `Pessoa ${i};11 9${String(1000_0000 + i)};SP\n`;
    for (let i = 0; i < 100; i++) csv += `Outra ${i};21 9${String(1000_0000 + i)};RJ;extra;coluna\n`;
    const res = await upload(token, Buffer.from(csv), 'turns-ragged.csv');
    expect(res.statusCode).toBe(201);
    const list = await waitForListImported(server, token, res.json().id);
    expect(list).toMatchObject({ status: 'failed', errorCode: 'CSV_RAGGED', valid: 0, total: 0 });
    expect(list.error).toMatch(/colunas/);
    expect(await countRows('contacts', list.id)).toBe(0);
    expect(await countRows('list_invalid_rows', list.id)).toBe(0);
  });

  it('refuses a file over 100 MB with 413 FILE_TOO_LARGE, keeping nothing', async () => {
    const boundary = '----ecoabig';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\nContent-Type: text/csv\r\n\r\ntelefone\n`,
    );
    const line = Buffer.from('11912345678\n'.repeat(87_382)); // ~1 MiB
    let sent = 0;
    const body = Readable.from(
      (function* () {
        yield head;
        while (sent <= 101 * 1024 * 1024) {
          sent += line.length;
          yield line;
        }
        yield Buffer.from(`\r\n--${boundary}--\r\n`);
      })(),
    );
    const res = await injectAs(server, token, {
      method: 'POST',
      url: '/api/v1/lists',
      payload: body,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('FILE_TOO_LARGE');
    expect(uploadsLeft()).toEqual([]);
  });

  it('deleting a list while it imports cancels it and leaves no contacts', async () => {
    // Big enough that the import is seen at work (its progress written to the list row) long
    // before its end: the delete lands mid-import, not before the job starts or after it ends.
    const lines = ['telefone;nome'];
    for (let i = 0; i < 400_000; i++) lines.push(`11 9${String(1000_0000 + i)};Pessoa ${i}`);
    const res = await upload(token, Buffer.from(lines.join('\n')), 'grande.csv');
    expect(res.statusCode).toBe(201);
    const id = res.json().id;
    const { rows: stored } = await server.db.executeSql('select upload_path from contact_lists where id = $1', [id]);
    const uploadPath = (stored[0] as { upload_path: string }).upload_path;
    let seen: { status: string; progress: number; rows_processed: number } | undefined;
    const started = Date.now() + 30_000;
    while (Date.now() < started) {
      const { rows } = await server.db.executeSql(
        'select status, progress, rows_processed from contact_lists where id = $1',
        [id],
      );
      seen = rows[0] as typeof seen;
      if (seen?.status !== 'importing' || seen.rows_processed > 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    // Mid-import: rows read, the list still importing, under half of the file behind it.
    expect(seen).toMatchObject({ status: 'importing' });
    expect(seen!.rows_processed).toBeGreaterThan(0);
    expect(seen!.progress).toBeLessThan(50);

    const del = await injectAs(server, token, { method: 'DELETE', url: `/api/v1/lists/${id}` });
    expect(del.statusCode).toBe(204);
    expect((await injectAs(server, token, { method: 'GET', url: `/api/v1/lists/${id}` })).statusCode).toBe(404);
    // The job notices at its next progress write, rolls back and ends.
    const deadline = Date.now() + 30_000;
    let live = 1;
    while (live > 0 && Date.now() < deadline) {
      const { rows } = await server.db.executeSql(
        `select count(*)::int as n from pgboss.job where name = 'lists.import' and data->>'listId' = $1 and state in ('created', 'retry', 'active')`,
        [id],
      );
      live = (rows[0] as { n: number }).n;
      if (live > 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(live).toBe(0);
    expect(await countRows('contacts', id)).toBe(0);
    expect(await countRows('list_invalid_rows', id)).toBe(0);
    expect(fs.existsSync(uploadPath)).toBe(false);
  }, 90_000);

  it('paginates, renames and deletes lists', async () => {
    const { token: t } = await signUpAndSignIn(server);
    const a = await importFixture(t, 'no-header-tab.csv', { name: 'A' });
    const b = await importFixture(t, 'no-header-tab.csv', { name: 'B' });
    const page1 = (await injectAs(server, t, { method: 'GET', url: '/api/v1/lists?page=1&pageSize=1' })).json();
    expect(page1).toMatchObject({ total: 2, page: 1, pageSize: 1 });
    expect(page1.items[0].id).toBe(b.id);
    const page2 = (await injectAs(server, t, { method: 'GET', url: '/api/v1/lists?page=2&pageSize=1' })).json();
    expect(page2.items[0].id).toBe(a.id);

    const renamed = await injectAs(server, t, {
      method: 'PATCH',
      url: `/api/v1/lists/${a.id}`,
      payload: { name: '  Novo nome ' },
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().name).toBe('Novo nome');
    const blank = await injectAs(server, t, { method: 'PATCH', url: `/api/v1/lists/${a.id}`, payload: { name: '  ' } });
    expect(blank.json().code).toBe('LIST_NAME_REQUIRED');

    expect((await injectAs(server, t, { method: 'DELETE', url: `/api/v1/lists/${a.id}` })).statusCode).toBe(204);
    expect((await injectAs(server, t, { method: 'GET', url: `/api/v1/lists/${a.id}` })).statusCode).toBe(404);
    expect(await countRows('contacts', a.id)).toBe(0);
    expect((await injectAs(server, t, { method: 'GET', url: '/api/v1/lists' })).json().total).toBe(1);
  });

  it('never shows a list to another user (404) and asks for a token (401)', async () => {
    const list = await importFixture(token, 'no-header-tab.csv');
    const routes: [string, string, unknown?][] = [
      ['GET', `/api/v1/lists/${list.id}`],
      ['GET', `/api/v1/lists/${list.id}/contacts`],
      ['GET', `/api/v1/lists/${list.id}/export?kind=valid`],
      ['GET', `/api/v1/lists/${list.id}/export?kind=invalid`],
      ['PATCH', `/api/v1/lists/${list.id}`, { name: 'x' }],
      ['DELETE', `/api/v1/lists/${list.id}`],
    ];
    for (const [method, url, payload] of routes) {
      const res = await injectAs(server, other, { method: method as 'GET', url, payload: payload as object });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().code).toBe('LIST_NOT_FOUND');
    }
    const theirs = (await injectAs(server, other, { method: 'GET', url: '/api/v1/lists' })).json();
    expect(theirs.items.map((l: { id: string }) => l.id)).not.toContain(list.id);
    expect((await injectAs(server, token, { method: 'GET', url: `/api/v1/lists/${list.id}` })).json().name).toBe(
      list.name,
    );

    for (const [method, url] of [
      ...routes,
      ['GET', '/api/v1/lists'],
      ['POST', '/api/v1/lists'],
      ['POST', '/api/v1/lists/preview'],
    ]) {
      const res = await server.app.inject({ method: method as 'GET', url: url as string });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
    expect((await injectAs(server, token, { method: 'GET', url: '/api/v1/lists/not-a-uuid' })).statusCode).toBe(400);
  });
});
