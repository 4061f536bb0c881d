/**
 * Each user-owned resource, across every module, is reachable only by its owner: another
 * account gets 404 or 403 and none of its data, no session gets 401 (see access.test-support.ts). The
 * administrators' endpoints: access.admin.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importList } from '../src/modules/campaigns/campaigns.test-support.ts';
import type { RunningServer } from '../src/server.ts';
import { callAs, expectOwnerOnly, rowsOf, userAndAdmin } from './access.test-support.ts';
import { wavFile } from './audio-builder.test-support.ts';
import { signIn, signUpAndSignIn } from './factories.test-support.ts';
import { waitForListImported } from './lists.test-support.ts';
import { multipart } from './multipart.test-support.ts';
import { createTestServer, dbKind } from './server.test-support.ts';

let server: RunningServer;
let tokens: { userToken: string; adminToken: string };

beforeAll(async () => {
  server = await createTestServer();
  tokens = await userAndAdmin(server);
});
afterAll(async () => {
  await server?.close();
});

describe(`access control: owners (${dbKind})`, () => {
  it('an enrichment is the owner’s alone: read, results, export, contact list', async () => {
    const owner = await signUpAndSignIn(server);
    const stranger = await signUpAndSignIn(server);
    // Both may enrich (so the stranger's answer is about the enrichment, not the permission).
    for (const u of [owner, stranger])
      await server.db.executeSql(`update users set permissions_enriched = '{all}' where id = $1`, [u.user.id]);
    const { rows } = await server.db.executeSql(
      `insert into enrichments (user_id, name, status, total, valid, found, with_phone)
       values ($1, 'Enriquecimento Secreto', 'ready', 1, 1, 1, 1) returning id`,
      [owner.user.id],
    );
    const id = (rows[0] as { id: string }).id;
    await server.db.executeSql(
      `insert into enrichment_items (enrichment_id, position, cnpj, found, company_name, phones)
       values ($1, 0, '11222333000181', true, 'EMPRESA SECRETA LTDA', '[{"e164":"+5511987650099","kind":"mobile"}]')`,
      [id],
    );
    await expectOwnerOnly(
      server,
      {
        owner: owner.token,
        stranger: stranger.token,
        secrets: ['Enriquecimento Secreto', 'EMPRESA SECRETA'],
        // The enrichment, and the lists anyone but the owner has (a list made from it would be one).
        state: rowsOf(
          server,
          `select e.*, (select count(*)::int from contact_lists l where l.user_id <> e.user_id) as others_lists
           from enrichments e where e.id = $1`,
          [id],
        ),
      },
      [
        { method: 'GET', url: `/api/v1/enrichments/${id}` },
        { method: 'GET', url: `/api/v1/enrichments/${id}/results` },
        { method: 'GET', url: `/api/v1/enrichments/${id}/export` },
        { method: 'POST', url: `/api/v1/enrichments/${id}/list`, payload: { name: 'Lista', kinds: ['mobile'] } },
      ],
    );
  });

  it('a campaign is the owner’s alone: read, estimate, edit, duplicate, start, pause, resume, cancel', async () => {
    const owner = await signUpAndSignIn(server);
    const stranger = await signUpAndSignIn(server);
    const list = await importList(server, owner.token, [{ phone: '+5511987650021', name: 'Cliente Secreto' }]);
    const created = await callAs(
      server,
      {
        method: 'POST',
        url: '/api/v1/campaigns',
        payload: {
          name: 'Campanha Secreta',
          channel: 'sms_short',
          listIds: [list],
          content: { text: 'Oi {nome}' },
          schedule: '2099-01-04T10:00:00-03:00',
        },
      },
      owner.token,
    );
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    await expectOwnerOnly(
      server,
      {
        owner: owner.token,
        stranger: stranger.token,
        secrets: ['Campanha Secreta', list],
        // The campaign, its messages, and the stranger's campaigns (a duplicate would be one).
        state: rowsOf(
          server,
          `select c.*, (select count(*)::int from messages m where m.campaign_id = c.id) as messages,
             (select count(*)::int from campaigns s where s.user_id = $2) as strangers_campaigns
           from campaigns c where c.id = $1`,
          [id, stranger.user.id],
        ),
      },
      [
        { method: 'GET', url: `/api/v1/campaigns/${id}` },
        { method: 'GET', url: `/api/v1/campaigns/${id}/estimate` },
        { method: 'GET', url: `/api/v1/campaigns/${id}/messages` },
        { method: 'GET', url: `/api/v1/campaigns/${id}/export` },
        { method: 'GET', url: `/api/v1/campaigns/${id}/timeline` },
        { method: 'PATCH', url: `/api/v1/campaigns/${id}`, payload: { name: 'Campanha Renomeada' } },
        { method: 'POST', url: `/api/v1/campaigns/${id}/duplicate` },
        { method: 'POST', url: `/api/v1/campaigns/${id}/start` },
        { method: 'POST', url: `/api/v1/campaigns/${id}/pause` },
        { method: 'POST', url: `/api/v1/campaigns/${id}/resume` },
        { method: 'POST', url: `/api/v1/campaigns/${id}/cancel` },
      ],
    );
  });

  it('a rotating link, its stats and its clicks are the owner’s alone', async () => {
    const owner = await signUpAndSignIn(server);
    const stranger = await signUpAndSignIn(server);
    const created = await callAs(
      server,
      {
        method: 'POST',
        url: '/api/v1/rotating-links',
        payload: {
          name: 'Link Secreto',
          slug: `secreto-${owner.user.id.slice(0, 8)}`,
          targets: [{ kind: 'whatsapp', phone: '11987650033', label: 'Vendedora Secreta' }],
        },
      },
      owner.token,
    );
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    await expectOwnerOnly(
      server,
      {
        owner: owner.token,
        stranger: stranger.token,
        secrets: ['Link Secreto', 'Vendedora Secreta'],
        state: rowsOf(
          server,
          `select l.*, (select json_agg(t order by t.id) from link_targets t where t.link_id = l.id) as targets
           from rotating_links l where l.id = $1`,
          [id],
        ),
      },
      [
        { method: 'GET', url: `/api/v1/rotating-links/${id}` },
        { method: 'GET', url: `/api/v1/rotating-links/${id}/stats` },
        { method: 'GET', url: `/api/v1/rotating-links/${id}/clicks/export` },
        { method: 'PATCH', url: `/api/v1/rotating-links/${id}`, payload: { name: 'Link Renomeado' } },
        { method: 'DELETE', url: `/api/v1/rotating-links/${id}` },
      ],
    );
    const list = await callAs(server, { method: 'GET', url: '/api/v1/rotating-links' }, stranger.token);
    expect(list.body).not.toContain('Link Secreto');
  });

  it('a contact list and its contacts are the owner’s alone', async () => {
    const owner = await signUpAndSignIn(server);
    const stranger = await signUpAndSignIn(server);
    const csv = Buffer.from('nome;telefone\nCliente Secreto;11987650001\nOutro;11987650002\n');
    const form = multipart([
      { name: 'name', value: 'Lista Secreta' },
      { name: 'file', filename: 'clientes.csv', content: csv },
    ]);
    const created = await callAs(
      server,
      { method: 'POST', url: '/api/v1/lists', payload: form.payload, headers: form.headers },
      owner.token,
    );
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    await waitForListImported(server, owner.token, id);

    const secrets = ['Lista Secreta', 'Cliente Secreto', '5511987650001', id];
    const state = rowsOf(
      server,
      `select l.*, (select count(*)::int from contacts c where c.list_id = l.id) as contacts
       from contact_lists l where l.id = $1`,
      [id],
    );
    await expectOwnerOnly(server, { owner: owner.token, stranger: stranger.token, secrets, state }, [
      { method: 'GET', url: `/api/v1/lists/${id}` },
      { method: 'GET', url: `/api/v1/lists/${id}/contacts` },
      { method: 'GET', url: `/api/v1/lists/${id}/export?kind=valid` },
      { method: 'GET', url: `/api/v1/lists/${id}/export?kind=invalid` },
      { method: 'PATCH', url: `/api/v1/lists/${id}`, payload: { name: 'Lista Renomeada' } },
      { method: 'DELETE', url: `/api/v1/lists/${id}` },
    ]);
    // Nor does it appear among the other user's lists, even to an administrator's own list view.
    for (const token of [stranger.token, tokens.adminToken]) {
      const theirs = await callAs(server, { method: 'GET', url: '/api/v1/lists' }, token);
      expect(theirs.statusCode).toBe(200);
      expect(theirs.body).not.toContain(id);
    }
  });

  it('opt-outs are per account', async () => {
    const owner = await signUpAndSignIn(server);
    const stranger = await signUpAndSignIn(server);
    const added = await callAs(
      server,
      { method: 'POST', url: '/api/v1/opt-outs', payload: { phones: ['(11) 98765-0003'] } },
      owner.token,
    );
    expect(added.statusCode, added.body).toBe(200);
    const search = { method: 'GET', url: '/api/v1/opt-outs?search=987650003' } as const;
    expect((await callAs(server, search, owner.token)).json().total).toBe(1);
    expect((await callAs(server, search, stranger.token)).json()).toMatchObject({ total: 0, items: [] });
    const state = rowsOf(server, 'select * from opt_outs where user_id = $1 order by phone', [owner.user.id]);
    await expectOwnerOnly(server, { owner: owner.token, stranger: stranger.token, secrets: ['5511987650003'], state }, [
      { method: 'DELETE', url: '/api/v1/opt-outs/5511987650003' },
    ]);
  });

  it('an audio, its file and its name are the owner’s alone', async () => {
    const owner = await signUpAndSignIn(server);
    const stranger = await signUpAndSignIn(server);
    const form = multipart([
      { name: 'name', value: 'Áudio Secreto' },
      { name: 'file', filename: 'secreto.wav', content: wavFile({ seconds: 1 }) },
    ]);
    const created = await callAs(
      server,
      { method: 'POST', url: '/api/v1/audios', payload: form.payload, headers: form.headers },
      owner.token,
    );
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    const state = rowsOf(server, 'select * from audios where id = $1', [id]);
    const secrets = ['Áudio Secreto', id];
    await expectOwnerOnly(server, { owner: owner.token, stranger: stranger.token, secrets, state }, [
      { method: 'GET', url: `/api/v1/audios/${id}` },
      { method: 'GET', url: `/api/v1/audios/${id}/file` },
      { method: 'GET', url: `/api/v1/audios/${id}/file`, headers: { range: 'bytes=0-9' } },
      { method: 'PATCH', url: `/api/v1/audios/${id}`, payload: { name: 'Áudio Renomeado' } },
      { method: 'DELETE', url: `/api/v1/audios/${id}` },
    ]);
    for (const token of [stranger.token, tokens.adminToken]) {
      const theirs = await callAs(server, { method: 'GET', url: '/api/v1/audios' }, token);
      expect(theirs.statusCode).toBe(200);
      expect(theirs.body).not.toContain(id);
    }
    // Uploading needs a session too; the playback link is the one way in without one.
    const anonymous = await callAs(server, {
      method: 'POST',
      url: '/api/v1/audios',
      payload: form.payload,
      headers: form.headers,
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('a message (a test send) and its history are the owner’s alone', async () => {
    const owner = await signUpAndSignIn(server);
    const stranger = await signUpAndSignIn(server);
    const sent = await callAs(
      server,
      {
        method: 'POST',
        url: '/api/v1/channels/test-send',
        payload: { channel: 'sms_flash', to: '11987650009', text: 'Segredo 42' },
      },
      owner.token,
    );
    expect(sent.statusCode, sent.body).toBe(201);
    const id = sent.json().id as string;
    await expectOwnerOnly(server, { owner: owner.token, stranger: stranger.token, secrets: ['+5511987650009', id] }, [
      { method: 'GET', url: `/api/v1/messages/${id}` },
    ]);
    const anonymous = await callAs(server, {
      method: 'POST',
      url: '/api/v1/channels/test-send',
      payload: { channel: 'sms_flash', to: '11987650009', text: 'x' },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('a session (a signed-in device) is ended only by its owner', async () => {
    const owner = await signUpAndSignIn(server);
    const laptop = await signIn(server, owner.email);
    const stranger = await signUpAndSignIn(server);
    const listed = await callAs(server, { method: 'GET', url: '/api/v1/me/sessions' }, owner.token);
    const laptopId = (listed.json().items as { id: string; current: boolean }[]).find((s) => !s.current)!.id;
    const strangers = await callAs(server, { method: 'GET', url: '/api/v1/me/sessions' }, stranger.token);
    expect(strangers.body).not.toContain(laptopId);
    const state = rowsOf(server, 'select * from sessions where id = $1', [laptopId]);
    await expectOwnerOnly(server, { owner: owner.token, stranger: stranger.token, state }, [
      { method: 'DELETE', url: `/api/v1/me/sessions/${laptopId}` },
    ]);
    const me = await callAs(server, { method: 'GET', url: '/api/me' }, laptop.token);
    expect(me.statusCode).toBe(401);
  });

  it('money statements are the owner’s alone (administrators read them through the admin routes)', async () => {
    const owner = await signUpAndSignIn(server);
    const stranger = await signUpAndSignIn(server);
    const paid = await callAs(
      server,
      {
        method: 'POST',
        url: `/api/v1/admin/users/${owner.user.id}/payments`,
        payload: { amount: 123.45, method: 'PIX', reason: 'Pagamento secreto' },
      },
      tokens.adminToken,
    );
    expect(paid.statusCode, paid.body).toBe(201);
    const paymentId = JSON.stringify(paid.json()).match(/[0-9a-f-]{36}/)![0];
    for (const url of ['/api/v1/ledger', '/api/v1/payments', '/api/v1/dashboard/balance']) {
      const mine = await callAs(server, { method: 'GET', url }, owner.token);
      expect(mine.statusCode).toBe(200);
      expect(url === '/api/v1/dashboard/balance' || mine.body.includes('123.45'), url).toBe(true);
      const theirs = await callAs(server, { method: 'GET', url }, stranger.token);
      expect(theirs.statusCode).toBe(200);
      for (const secret of ['123.45', 'Pagamento secreto', paymentId]) expect(theirs.body, url).not.toContain(secret);
    }
    // One payment by its id (the card return's status): the owner's only.
    const one = `/api/v1/payments/${paymentId}`;
    expect((await callAs(server, { method: 'GET', url: one }, owner.token)).json()).toMatchObject({ amount: 123.45 });
    const foreign = await callAs(server, { method: 'GET', url: one }, stranger.token);
    expect(foreign.statusCode).toBe(404);
    for (const secret of ['123.45', 'Pagamento secreto']) expect(foreign.body).not.toContain(secret);
  });
});
