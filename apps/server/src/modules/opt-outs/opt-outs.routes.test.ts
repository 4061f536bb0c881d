import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { signUpAndSignIn } from '../../../test/factories.test-support.ts';
import { openBeforeAll } from '../../../test/hooks.test-support.ts';
import { injectAs, uploadAs } from '../../../test/http.test-support.ts';
import { waitForListImported } from '../../../test/lists.test-support.ts';
import { multipart } from '../../../test/multipart.test-support.ts';
import { createTestServer, dbKind } from '../../../test/server.test-support.ts';
import type { RunningServer } from '../../server.ts';

const fixture = (name: string) => fs.readFileSync(path.resolve(import.meta.dirname, '../lists/fixtures', name));

describe(`opt-outs API (${dbKind})`, () => {
  let server: RunningServer;
  openBeforeAll(createTestServer, (opened) => (server = opened));

  async function importList(token: string, name: string) {
    const form = multipart([{ name: 'file', filename: name, content: fixture(name) }]);
    const res = await uploadAs(server, token, '/api/v1/lists', form);
    expect(res.statusCode, res.body).toBe(201);
    return waitForListImported(server, token, res.json().id);
  }

  it('adds numbers in any spelling once, lists, searches and removes them', async () => {
    const { token } = await signUpAndSignIn(server);
    const added = await injectAs(server, token, {
      method: 'POST',
      url: '/api/v1/opt-outs',
      payload: { phones: ['(11) 91234-5678', '+55 11 9 1234-5678', '21 3123-4567', 'abc', '(20) 91234-5678'] },
    });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json()).toEqual({
      added: 2,
      alreadyOptedOut: 0,
      invalid: 2,
      invalidSamples: [
        { value: 'abc', reason: 'INVALID_CHARACTERS' },
        { value: '(20) 91234-5678', reason: 'INVALID_DDD' },
      ],
    });
    const again = await injectAs(server, token, {
      method: 'POST',
      url: '/api/v1/opt-outs',
      payload: { phones: ['11912345678'] },
    });
    expect(again.json()).toMatchObject({ added: 0, alreadyOptedOut: 1 });

    const all = (await injectAs(server, token, { method: 'GET', url: '/api/v1/opt-outs' })).json();
    expect(all.total).toBe(2);
    expect(all.items.map((i: { phone: string }) => i.phone).sort()).toEqual(['+5511912345678', '+552131234567']);
    expect(all.items[0]).toMatchObject({ source: 'manual' });
    // Exactly the API's OptOut: the number, its source, and when, as an ISO instant.
    expect(Object.keys(all.items[0])).toEqual(['phone', 'source', 'createdAt']);
    expect(all.items[0].createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const search = (
      await injectAs(server, token, { method: 'GET', url: '/api/v1/opt-outs?search=(11) 91234-5678' })
    ).json();
    expect(search.items.map((i: { phone: string }) => i.phone)).toEqual(['+5511912345678']);
    const partial = (await injectAs(server, token, { method: 'GET', url: '/api/v1/opt-outs?search=3123' })).json();
    expect(partial.items.map((i: { phone: string }) => i.phone)).toEqual(['+552131234567']);

    const removed = await injectAs(server, token, {
      method: 'DELETE',
      url: `/api/v1/opt-outs/${encodeURIComponent('(11) 91234-5678')}`,
    });
    expect(removed.statusCode).toBe(204);
    const gone = await injectAs(server, token, { method: 'DELETE', url: '/api/v1/opt-outs/11912345678' });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().code).toBe('OPT_OUT_NOT_FOUND');
    expect((await injectAs(server, token, { method: 'GET', url: '/api/v1/opt-outs' })).json().total).toBe(1);
  });

  it('uploads a spreadsheet of numbers (phone column detected)', async () => {
    const { token } = await signUpAndSignIn(server);
    const form = multipart([{ name: 'file', filename: 'sair.csv', content: fixture('excel-br-windows1252.csv') }]);
    const res = await uploadAs(server, token, '/api/v1/opt-outs/upload', form);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ added: 7, alreadyOptedOut: 0, invalid: 2 });
    const xlsx = multipart([{ name: 'file', filename: 'sair.xlsx', content: fixture('contacts.xlsx') }]);
    const res2 = await uploadAs(server, token, '/api/v1/opt-outs/upload', xlsx);
    expect(res2.json()).toMatchObject({ added: 2, alreadyOptedOut: 1, invalid: 1 });
    const bad = multipart([{ name: 'file', filename: 'x.csv', content: fixture('image.png.csv') }]);
    const res3 = await uploadAs(server, token, '/api/v1/opt-outs/upload', bad);
    expect(res3.statusCode).toBe(400);
    expect(res3.json().code).toBe('UNSUPPORTED_FILE_TYPE');
  });

  it('shows per list how many contacts are opted out, account-wide only', async () => {
    const { token } = await signUpAndSignIn(server);
    const { token: other } = await signUpAndSignIn(server);
    const list = await importList(token, 'excel-br-windows1252.csv');
    expect(list.optedOut).toBe(0);
    await injectAs(server, token, {
      method: 'POST',
      url: '/api/v1/opt-outs',
      payload: { phones: ['11912345678', '5521312345670'] },
    });
    await injectAs(server, other, { method: 'POST', url: '/api/v1/opt-outs', payload: { phones: ['11987654321'] } });
    const after = (await injectAs(server, token, { method: 'GET', url: `/api/v1/lists/${list.id}` })).json();
    expect(after.optedOut).toBe(1);
    const inList = (await injectAs(server, token, { method: 'GET', url: '/api/v1/lists' })).json();
    expect(inList.items.find((l: { id: string }) => l.id === list.id).optedOut).toBe(1);
    const contacts = (
      await injectAs(server, token, { method: 'GET', url: `/api/v1/lists/${list.id}/contacts` })
    ).json();
    const flagged = contacts.items
      .filter((c: { optedOut: boolean }) => c.optedOut)
      .map((c: { phone: string }) => c.phone);
    expect(flagged).toEqual(['+5511912345678']);
    // The other account's opt-outs are its own.
    expect((await injectAs(server, other, { method: 'GET', url: '/api/v1/opt-outs' })).json().total).toBe(1);
    expect(
      (await injectAs(server, token, { method: 'GET', url: '/api/v1/opt-outs?search=987654321' })).json().total,
    ).toBe(0);
  });

  it('asks for a token on every route and validates input', async () => {
    for (const [method, url] of [
      ['GET', '/api/v1/opt-outs'],
      ['POST', '/api/v1/opt-outs'],
      ['POST', '/api/v1/opt-outs/upload'],
      ['DELETE', '/api/v1/opt-outs/11912345678'],
    ] as const) {
      expect((await server.app.inject({ method, url })).statusCode, `${method} ${url}`).toBe(401);
    }
    const { token } = await signUpAndSignIn(server);
    const empty = await injectAs(server, token, { method: 'POST', url: '/api/v1/opt-outs', payload: { phones: [] } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().code).toBe('VALIDATION_FAILED');
  });
});
