import { describe, expect, it } from 'vitest';
import { openServerWithUser } from '../../../test/hooks.test-support.ts';
import { injectAs, uploadAs } from '../../../test/http.test-support.ts';
import { waitForListImported } from '../../../test/lists.test-support.ts';
import { multipart } from '../../../test/multipart.test-support.ts';
import { dbKind } from '../../../test/server.test-support.ts';
import type { RunningServer } from '../../server.ts';

/** Files any signed-up account can upload, and that must not take the server down. */
describe(`hostile list files (${dbKind})`, () => {
  let server: RunningServer;
  let token: string;

  openServerWithUser((opened) => ({ server, token } = opened));

  async function upload(content: Buffer, filename: string, fields: Record<string, string> = {}) {
    const form = multipart([
      ...Object.entries(fields).map(([name, value]) => ({ name, value })),
      { name: 'file', filename, content },
    ]);
    return uploadAs(server, token, '/api/v1/lists', form);
  }

  const phone = (i: number) => `119${String(70_000_000 + i).padStart(8, '0')}`;

  it('a NUL byte past the first 64 KB: the row is kept without it, the list is ready, the server is up', async () => {
    // Reproduction 1: 6,000 valid rows, then `123;Nome com <NUL> nulo` (an invalid phone: its
    // cells go to list_invalid_rows, whose jsonb refuses \u0000), then one more valid row.
    const lines = ['telefone;nome'];
    for (let i = 0; i < 6000; i++) lines.push(`${phone(i)};Cliente ${i}`);
    lines.push('123;Nome com \u0000 nulo');
    lines.push(`${phone(6000)};Último \u0000cliente`);
    const csv = Buffer.from(`${lines.join('\n')}\n`, 'utf8');
    expect(csv.length).toBeGreaterThan(64 * 1024);

    const res = await upload(csv, 'nul.csv');
    expect(res.statusCode, res.body).toBe(201);
    const list = await waitForListImported(server, token, res.json().id);
    expect(list).toMatchObject({ status: 'ready', total: 6002, valid: 6001, invalid: 1 });

    const invalid = await injectAs(server, token, {
      method: 'GET',
      url: `/api/v1/lists/${list.id}/export?kind=invalid`,
    });
    expect(invalid.statusCode).toBe(200);
    expect(invalid.body).toContain('123;');
    expect(invalid.body).toContain('Nome com  nulo');
    expect(invalid.body).not.toContain('\u0000');
    const { rows } = await server.db.executeSql('select name from contacts where list_id = $1 and phone = $2', [
      list.id,
      `+55${phone(6000)}`,
    ]);
    expect(rows).toEqual([{ name: 'Último cliente' }]);

    const health = await server.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.json()).toEqual({ status: 'ok' });
  });

  it('lone surrogates, control characters and a NUL in the header are dropped too', async () => {
    // A few control characters among many rows: still text (a binary has them everywhere).
    const filler = Array.from({ length: 40 }, (_, i) => `${phone(100 + i)};Cliente ${i};Recife`).join('\n');
    const csv = Buffer.from(
      `telefone;nome;cidade\u0000\n${phone(1)};Ana \ud800 Lu\u0007z;São\u0001 Paulo\n99;x\udfff;\u001b[31mvermelho\n${filler}\n`,
      'utf8',
    );
    const res = await upload(csv, 'controls.csv');
    expect(res.statusCode, res.body).toBe(201);
    const list = await waitForListImported(server, token, res.json().id);
    expect(list).toMatchObject({ status: 'ready', valid: 41, invalid: 1, fields: ['cidade'] });
    const contacts = await injectAs(server, token, {
      method: 'GET',
      url: `/api/v1/lists/${list.id}/contacts?pageSize=1`,
    });
    expect(contacts.json().items[0]).toMatchObject({ name: 'Ana \ufffd Luz', fields: { cidade: 'São Paulo' } });
  });

  it('a list name typed with a control character is refused (400) and nothing is kept', async () => {
    const before = await server.db.executeSql('select count(*)::int as n from contact_lists', []);
    const res = await upload(Buffer.from(`telefone\n${phone(1)}\n`), 'ok.csv', { name: 'Lista\u0000' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'TEXT_INVALID_CHARACTERS', details: { field: 'name' } });
    const after = await server.db.executeSql('select count(*)::int as n from contact_lists', []);
    expect(after.rows).toEqual(before.rows);
  });

  it('a file name with control characters becomes a clean default list name', async () => {
    const res = await upload(Buffer.from(`telefone\n${phone(2)}\n`), 'clientes\u0007 novos.csv');
    expect(res.statusCode, res.body).toBe(201);
    const list = await waitForListImported(server, token, res.json().id);
    expect(list).toMatchObject({ status: 'ready', name: 'clientes novos', fileName: 'clientes novos.csv' });
  });
});
