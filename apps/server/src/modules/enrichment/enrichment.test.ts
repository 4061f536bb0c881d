import { cnpjCheckDigits } from '@ecoa/shared';
import { describe, expect, it } from 'vitest';
import { makeAdmin, signUpAndSignIn } from '../../../test/factories.test-support.ts';
import { openBeforeAll } from '../../../test/hooks.test-support.ts';
import { injectAs, uploadAs } from '../../../test/http.test-support.ts';
import { multipart } from '../../../test/multipart.test-support.ts';
import { createTestServer, dbKind } from '../../../test/server.test-support.ts';
import type { RunningServer } from '../../server.ts';

/** A CNPJ from its first twelve characters (the check digits computed). */
const cnpj = (first12: string) => `${first12}${cnpjCheckDigits(first12)}`;
const ACME = cnpj('112223330001'); // active, a mobile and a landline
const ACME_FILIAL = cnpj('112223330002'); // active, no phone
const BAIXADA = cnpj('445556660001'); // closed, a mobile
const ALFA = cnpj('12ABC34501DE'); // alphanumeric (July 2026 on), active, a landline
const MISSING = cnpj('998887770001'); // not in the base

/**
 * Enrichment end to end on a real database (its own, so the CNPJ base seeded here is this
 * test's alone): access rule, inputs checked, credits reserved, captured for hits and released
 * for the rest, results, export, the contact list, the administrators' view.
 */
describe(`enrichment (${dbKind})`, () => {
  let server: RunningServer;
  openBeforeAll(
    () => createTestServer({ isolated: true }),
    (opened) => (server = opened),
  );

  const sql = (text: string, params: unknown[] = []) => server.db.executeSql(text, params);

  async function seedBase() {
    await sql(`insert into cnpj_companies (basico, company_name) values
      ('11222333', 'ACME COMERCIO LTDA'), ('44555666', 'PADARIA ANTIGA LTDA'), ('12ABC345', 'NOVA ERA SA')`);
    await sql(
      `insert into cnpj_establishments (cnpj, basico, trade_name, situation, cnae, uf, city, phones, email) values
        ($1, '11222333', 'ACME', 2, '4711302', 'SP', 'SÃO PAULO', '{+5511987654321,+551133334444}', 'contato@acme.com.br'),
        ($2, '11222333', 'ACME FILIAL', 2, '4711302', 'RJ', 'RIO DE JANEIRO', '{}', null),
        ($3, '44555666', null, 8, '1091101', 'MG', 'BELO HORIZONTE', '{+5531998887777}', null),
        ($4, '12ABC345', 'NOVA ERA', 2, '6201501', 'PR', 'CURITIBA', '{+554130304040}', null)`,
      [ACME, ACME_FILIAL, BAIXADA, ALFA],
    );
    await sql(`insert into cnpj_base (id, reference_month, establishments, companies, imported_at)
      values (1, '2026-10', 4, 3, now())`);
  }

  async function userWith(credits: number, permission = true) {
    const account = await signUpAndSignIn(server);
    if (permission) await sql(`update users set permissions_enriched = '{all}' where id = $1`, [account.user.id]);
    if (credits > 0) {
      const admin = await signUpAndSignIn(server);
      await makeAdmin(server, admin.user.id);
      await server.modules.ledger.adjust({
        userId: account.user.id,
        type: 'ENRICHED',
        amount: credits,
        actorUserId: admin.user.id,
        reason: 'teste',
      });
    }
    return account;
  }
  const enriched = async (userId: string) => (await server.modules.ledger.getBalances(userId)).ENRICHED;

  async function waitReady(token: string, id: string) {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const body = (await injectAs(server, token, { method: 'GET', url: `/api/v1/enrichments/${id}` })).json();
      if (body.status !== 'processing') return body;
      if (Date.now() > deadline) throw new Error(`enrichment ${id} still processing`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('needs the base loaded and the permission; refuses a shortfall with nothing reserved', async () => {
    const early = await userWith(10);
    const noBase = await injectAs(server, early.token, {
      method: 'POST',
      url: '/api/v1/enrichments',
      payload: { name: 'Cedo', cnpjs: [ACME] },
    });
    expect(noBase.json().code).toBe('CNPJ_BASE_EMPTY');
    const month = async () =>
      (await injectAs(server, early.token, { method: 'GET', url: '/api/v1/enrichments/base' })).json();
    expect(await month()).toEqual({ referenceMonth: null });
    await seedBase();
    expect(await month()).toEqual({ referenceMonth: '2026-10' });

    const stranger = await userWith(10, false);
    for (const [method, url] of [
      ['GET', '/api/v1/enrichments'],
      ['POST', '/api/v1/enrichments'],
    ] as const) {
      const res = await injectAs(server, stranger.token, { method, url, payload: { name: 'x', cnpjs: [ACME] } });
      expect(res.statusCode, url).toBe(403);
      expect(res.json().code).toBe('ENRICHMENT_FORBIDDEN');
    }

    const poor = await userWith(2);
    const short = await injectAs(server, poor.token, {
      method: 'POST',
      url: '/api/v1/enrichments',
      payload: { name: 'Caro', cnpjs: [ACME, ACME_FILIAL, BAIXADA] },
    });
    expect(short.statusCode).toBe(400);
    expect(short.json().code).toBe('INSUFFICIENT_BALANCE');
    expect(await enriched(poor.user.id)).toMatchObject({ available: 2, reserved: 0 });
    const { rows } = await sql('select count(*)::int as n from enrichments where user_id = $1', [poor.user.id]);
    expect(rows).toEqual([{ n: 0 }]);
  });

  it('looks CNPJs up, charges only those found with a phone, and makes a contact list of them', async () => {
    const { token, user } = await userWith(10);
    const masked = `${ACME.slice(0, 2)}.${ACME.slice(2, 5)}.${ACME.slice(5, 8)}/${ACME.slice(8, 12)}-${ACME.slice(12)}`;
    const created = await injectAs(server, token, {
      method: 'POST',
      url: '/api/v1/enrichments',
      payload: {
        name: 'Prospecção',
        cnpjs: [masked, ACME, ACME_FILIAL, BAIXADA, ALFA.toLowerCase(), MISSING, '11.222.333/0001-00', 'abc', ''],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id;

    const done = await waitReady(token, id);
    expect(done).toMatchObject({
      status: 'ready',
      progress: 100,
      total: 8,
      valid: 5,
      invalid: 2,
      duplicates: 1,
      found: 4,
      withPhone: 3,
      notFound: 1,
      credits: { reserved: 5, used: 3, released: 2 },
      baseMonth: '2026-10',
    });
    expect(done.invalidItems).toEqual([
      { value: '11.222.333/0001-00', reason: 'CHECK_DIGITS' },
      { value: 'abc', reason: 'FORMAT' },
    ]);
    expect(await enriched(user.id)).toMatchObject({ available: 7, reserved: 0 });
    // The ledger says the same: 5 reserved at start, 3 captured (hits with a phone), 2 released.
    const { rows: moves } = await sql(
      `select kind, amount::int, reserved_delta::int as reserved from ledger_entries
       where reference_type = 'enrichment' and reference_id = $1 order by id`,
      [id],
    );
    expect(moves).toEqual([
      { kind: 'RESERVE', amount: -5, reserved: 5 },
      { kind: 'CAPTURE', amount: 0, reserved: -3 },
      { kind: 'RELEASE', amount: 2, reserved: -2 },
    ]);

    const results = (await injectAs(server, token, { method: 'GET', url: `/api/v1/enrichments/${id}/results` })).json();
    expect(results.items.map((r: { cnpj: string }) => r.cnpj)).toEqual([ACME, ACME_FILIAL, BAIXADA, ALFA, MISSING]);
    expect(results.items[0]).toEqual({
      cnpj: ACME,
      found: true,
      companyName: 'ACME COMERCIO LTDA',
      tradeName: 'ACME',
      situation: 'ativa',
      city: 'SÃO PAULO',
      uf: 'SP',
      cnae: '4711302',
      phones: [
        { e164: '+5511987654321', kind: 'mobile' },
        { e164: '+551133334444', kind: 'landline' },
      ],
      email: 'contato@acme.com.br',
    });
    expect(results.items[2]).toMatchObject({ situation: 'baixada', found: true });
    expect(results.items[4]).toMatchObject({ found: false, companyName: null, phones: [] });
    const missing = (
      await injectAs(server, token, { method: 'GET', url: `/api/v1/enrichments/${id}/results?found=false` })
    ).json();
    expect(missing.items.map((r: { cnpj: string }) => r.cnpj)).toEqual([MISSING]);

    const csv = (await injectAs(server, token, { method: 'GET', url: `/api/v1/enrichments/${id}/export` })).body;
    const lines = csv
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('cnpj;encontrado;razao_social;nome_fantasia;situacao;cidade;uf;cnae;celulares;fixos;email');
    expect(lines[1]).toBe(
      `${ACME};sim;ACME COMERCIO LTDA;ACME;ativa;SÃO PAULO;SP;4711302;5511987654321;551133334444;contato@acme.com.br`,
    );
    expect(lines).toHaveLength(6);

    const list = await injectAs(server, token, {
      method: 'POST',
      url: `/api/v1/enrichments/${id}/list`,
      payload: { name: 'Celulares prospecção', kinds: ['mobile'] },
    });
    expect(list.statusCode, list.body).toBe(201);
    const listId = list.json().listId;
    const shown = (await injectAs(server, token, { method: 'GET', url: `/api/v1/lists/${listId}` })).json();
    expect(shown).toMatchObject({ status: 'ready', valid: 2, mobiles: 2, landlines: 0 });
    const contacts = (await injectAs(server, token, { method: 'GET', url: `/api/v1/lists/${listId}/contacts` })).json();
    expect(contacts.items.map((c: { phone: string }) => c.phone).sort()).toEqual(['+5511987654321', '+5531998887777']);
    expect(contacts.items.find((c: { phone: string }) => c.phone === '+5511987654321')).toMatchObject({
      name: 'ACME COMERCIO LTDA',
      fields: { cnpj: ACME, cidade: 'SÃO PAULO', uf: 'SP' },
    });

    // Someone else's enrichment does not exist for this user.
    const other = await userWith(0);
    expect((await injectAs(server, other.token, { method: 'GET', url: `/api/v1/enrichments/${id}` })).statusCode).toBe(
      404,
    );

    // Administrators see every user's, by user and period, and open one.
    const admin = await signUpAndSignIn(server);
    await makeAdmin(server, admin.user.id);
    const listed = (
      await injectAs(server, admin.token, { method: 'GET', url: `/api/v1/admin/enrichments?userId=${user.id}` })
    ).json();
    expect(listed.items).toEqual([
      expect.objectContaining({ id, name: 'Prospecção', withPhone: 3, user: expect.objectContaining({ id: user.id }) }),
    ]);
    const future = new Date(Date.now() + 86_400_000).toISOString();
    const none = await injectAs(server, admin.token, {
      method: 'GET',
      url: `/api/v1/admin/enrichments?userId=${user.id}&from=${encodeURIComponent(future)}`,
    });
    expect(none.json().total).toBe(0);
    const opened = await injectAs(server, admin.token, {
      method: 'GET',
      url: `/api/v1/admin/enrichments/${id}/results`,
    });
    expect(opened.json().total).toBe(5);
  });

  it('reads the CNPJ column of an uploaded spreadsheet, and can keep only active companies', async () => {
    const { token } = await userWith(10);
    const csv = `Empresa;CNPJ;Cidade\nAcme;${ACME};SP\nPadaria;${BAIXADA};BH\nNova;${ALFA};PR\n`;
    const form = multipart([
      { name: 'name', value: 'Planilha' },
      { name: 'onlyActive', value: 'true' },
      { name: 'file', filename: 'empresas.csv', content: Buffer.from(csv, 'latin1') },
    ]);
    const res = await uploadAs(server, token, '/api/v1/enrichments', form);
    expect(res.statusCode, res.body).toBe(201);
    const done = await waitReady(token, res.json().id);
    expect(done).toMatchObject({ total: 3, valid: 3, found: 2, withPhone: 2, notFound: 1, onlyActive: true });

    const noColumn = multipart([{ name: 'file', filename: 'nada.csv', content: Buffer.from('nome;cidade\nA;B\n') }]);
    const refused = await uploadAs(server, token, '/api/v1/enrichments', noColumn);
    expect(refused.json().code).toBe('NO_CNPJ_COLUMN');
  });
});
