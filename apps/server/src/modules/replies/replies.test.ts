import type { paths } from '@ecoa/api-client';
import type { RepliesPage, Reply } from '@ecoa/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answered, apiClient } from '../../../test/api-client.test-support.ts';
import { asUser } from '../../../test/http.test-support.ts';
import { dbKind } from '../../../test/server.test-support.ts';
import type { RunningServer } from '../../server.ts';
import { api, importList, mobile, smsCampaign, startCampaignsServer } from '../campaigns/campaigns.test-support.ts';
import {
  type ChannelsUser,
  credits,
  sendAndWait,
  userWithCredits,
  waitForMessage,
} from '../channels/channels.test-support.ts';

/**
 * The replies inbox against the real carriers' simulators: a campaign's recipients answer by SMS
 * (the SMSC simulator's MO), a test send's recipient by WhatsApp, and the inbox lists, filters,
 * pages, marks, exports and answers them.
 */
describe(`replies inbox (${dbKind})`, () => {
  let server: RunningServer;
  let user: ChannelsUser;
  let as: ReturnType<typeof asUser>;
  /** The public routes through the typed client, over HTTP (startCampaignsServer listens). */
  let ecoa: ReturnType<typeof apiClient>;
  const ana = mobile();
  const bruno = mobile();
  const carla = mobile();
  let campaignId: string;
  let whatsappMessageId: string;
  let replies: Reply[];
  const byPhone = (phone: string) => replies.find((r) => r.phone === phone)!;

  async function list(query: NonNullable<paths['/api/v1/replies']['get']['parameters']['query']> = {}) {
    const res = await answered(ecoa.GET('/api/v1/replies', { params: { query } }));
    expect(res.statusCode, res.body).toBe(200);
    return res.data!;
  }

  beforeAll(async () => {
    server = await startCampaignsServer();
    user = await userWithCredits(server);
    as = asUser(server, user.token);
    ecoa = apiClient(server, user.token);
    const listId = await importList(server, user.token, [
      { phone: ana, name: 'Ana Souza' },
      { phone: bruno, name: '' },
    ]);
    const campaigns = api(server, user.token);
    campaignId = await campaigns.create(smsCampaign('Promoção de verão', listId));
    await campaigns.move(campaignId, 'start');
    await campaigns.waitFor(campaignId);
    whatsappMessageId = (
      await sendAndWait(server, user, {
        channel: 'whatsapp',
        to: carla,
        template: { name: 'boas_vindas', language: 'pt_BR', params: ['Carla'] },
      })
    ).id;

    const smsc = server.providers.simulators.smsc!;
    await smsc.sendMo({ from: ana.slice(1), to: '28282', text: 'Quero saber mais' });
    await smsc.sendMo({ from: bruno.slice(1), to: '28282', text: 'SAIR' });
    await server.providers.simulators.whatsapp!.sendInbound({ from: carla, text: 'Oi, tudo bem?' });
    const deadline = Date.now() + 20_000;
    do {
      replies = (await list()).items;
      if (replies.length === 3) break;
      await new Promise((r) => setTimeout(r, 50));
    } while (Date.now() < deadline);
    expect(replies).toHaveLength(3);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it('lists every reply with its contact name, channel, campaign and message, opt-outs flagged', () => {
    expect(byPhone(ana)).toMatchObject({
      contactName: 'Ana Souza',
      channel: 'sms',
      text: 'Quero saber mais',
      optOut: false,
      handledAt: null,
      campaign: { id: campaignId, name: 'Promoção de verão' },
      answerable: true,
      answerableUntil: null,
    });
    expect(byPhone(ana).messageId).toMatch(/^[0-9a-f-]{36}$/);
    expect(byPhone(bruno)).toMatchObject({ contactName: null, optOut: true, campaign: { id: campaignId } });
    expect(byPhone(carla)).toMatchObject({
      channel: 'whatsapp',
      campaign: null,
      messageId: whatsappMessageId,
      contactName: null,
      answerable: true,
    });
    // Newest first.
    const times = replies.map((r) => r.receivedAt);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('filters by campaign, channel, period and not handled', async () => {
    const phones = (page: RepliesPage) => page.items.map((r) => r.phone).sort();
    expect(phones(await list({ campaignId }))).toEqual([ana, bruno].sort());
    expect(phones(await list({ channel: 'whatsapp' }))).toEqual([carla]);
    expect(phones(await list({ channel: 'rcs' }))).toEqual([]);
    const first = replies.at(-1)!.receivedAt;
    expect((await list({ to: first })).items).toEqual([]);
    expect((await list({ from: first })).items).toHaveLength(3);
    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await list({ from: future })).items).toEqual([]);
    const bad = await as({ method: 'GET', url: '/api/v1/replies?channel=fax' });
    expect(bad.statusCode).toBe(400);
  });

  it('pages by keyset: each reply once, in order, then no cursor', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 5; i++) {
      const page: RepliesPage = await list({ limit: 1, ...(cursor ? { cursor } : {}) });
      seen.push(...page.items.map((r) => r.id));
      cursor = page.nextCursor;
      if (!cursor) break;
    }
    expect(seen).toEqual(replies.map((r) => r.id));
    expect(cursor).toBeNull();
    const two = await list({ limit: 2 });
    expect(two.items.map((r) => r.id)).toEqual(replies.slice(0, 2).map((r) => r.id));
    const rest = await list({ limit: 2, cursor: two.nextCursor! });
    expect(rest).toEqual({ items: [replies[2]], nextCursor: null });
    const forged = await as({ method: 'GET', url: '/api/v1/replies?cursor=bm90LWEtY3Vyc29y' });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().code).toBe('INVALID_CURSOR');
  });

  it('marks a reply handled and not handled again; the filter follows', async () => {
    const id = byPhone(ana).id;
    const mark = (handled: boolean) =>
      answered(ecoa.PATCH('/api/v1/replies/{id}', { params: { path: { id } }, body: { handled } }));
    const marked = await mark(true);
    expect(marked.statusCode, marked.body).toBe(200);
    expect(marked.data!.handledAt).not.toBeNull();
    expect((await list({ handled: 'false' })).items.map((r) => r.id)).not.toContain(id);
    expect((await list({ handled: 'true' })).items.map((r) => r.id)).toEqual([id]);
    // Marking it again keeps the first time.
    const again = await mark(true);
    expect(again.data!.handledAt).toBe(marked.data!.handledAt);
    const undo = await mark(false);
    expect(undo.data!.handledAt).toBeNull();
    expect((await list({ handled: 'false' })).items).toHaveLength(3);
  });

  it('exports the filtered replies as CSV like the other exports', async () => {
    const res = await as({ method: 'GET', url: `/api/v1/replies.csv?campaignId=${campaignId}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toContain('respostas.csv');
    const lines = res.body
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('recebida em;telefone;nome;canal;texto;descadastro;campanha;tratada em');
    expect(lines).toHaveLength(3);
    const anaLine = lines.find((l) => l.includes(ana.slice(1)))!;
    expect(anaLine).toContain(';Ana Souza;sms;Quero saber mais;não;Promoção de verão;');
    expect(lines.find((l) => l.includes(bruno.slice(1)))).toContain(';SAIR;sim;');
  });

  it('answers an SMS reply: one SMS credit, through the SMSC, once per Idempotency-Key', async () => {
    const smsc = server.providers.simulators.smsc!;
    const before = await credits(server, user.id, 'SMSSHORT');
    const submits = smsc.counters().submits;
    const answer = (key: string) =>
      answered(
        ecoa.POST('/api/v1/replies/{id}/answer', {
          params: { path: { id: byPhone(ana).id } },
          headers: { 'idempotency-key': key },
          body: { text: 'Olá Ana, segue o link da promoção.' },
        }),
      );
    const res = await answer('answer-ana-1');
    expect(res.statusCode, res.body).toBe(201);
    const message = await waitForMessage(server, user, res.data!.id);
    expect(message).toMatchObject({ channel: 'sms_short', to: ana, status: 'delivered', parts: 1 });
    expect(smsc.counters().submits).toBe(submits + 1);
    const replay = await answer('answer-ana-1');
    expect(replay.statusCode).toBe(200);
    expect(replay.data!.id).toBe(res.data!.id);
    expect(smsc.counters().submits).toBe(submits + 1);
    expect(await credits(server, user.id, 'SMSSHORT')).toEqual({ available: before.available - 1, reserved: 0 });
    expect((await server.modules.ledger.reconcile(user.id)).ok).toBe(true);
  });

  it('refuses to answer an opted-out number, and an empty text, charging nothing', async () => {
    const before = await credits(server, user.id, 'SMSSHORT');
    const url = `/api/v1/replies/${byPhone(bruno).id}/answer`;
    const optedOut = await as({ method: 'POST', url, payload: { text: 'Tem certeza?' } });
    expect(optedOut.statusCode).toBe(409);
    expect(optedOut.json().code).toBe('RECIPIENT_OPTED_OUT');
    const empty = await as({
      method: 'POST',
      url: `/api/v1/replies/${byPhone(ana).id}/answer`,
      payload: { text: ' ' },
    });
    expect(empty.statusCode).toBe(400);
    expect(await credits(server, user.id, 'SMSSHORT')).toEqual(before);
  });

  it('answers a WhatsApp reply inside its 24-hour window, and refuses it after', async () => {
    const whatsapp = server.providers.simulators.whatsapp!;
    const before = await credits(server, user.id, 'WHATSAPP');
    const accepted = whatsapp.counters().accepted;
    const url = `/api/v1/replies/${byPhone(carla).id}/answer`;
    const res = await as({ method: 'POST', url, payload: { text: 'Tudo ótimo! Como posso ajudar?' } });
    expect(res.statusCode, res.body).toBe(201);
    expect(await waitForMessage(server, user, res.json().id)).toMatchObject({
      channel: 'whatsapp',
      status: 'delivered',
    });
    expect(whatsapp.counters().accepted).toBe(accepted + 1);
    expect(await credits(server, user.id, 'WHATSAPP')).toEqual({ available: before.available - 1, reserved: 0 });

    // The person wrote 25 hours ago: the window closed.
    await server.db.executeSql(
      `update inbound_messages set received_at = received_at - interval '25 hours' where id = $1`,
      [byPhone(carla).id],
    );
    const late = await as({ method: 'POST', url, payload: { text: 'Ainda aí?' } });
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('REPLY_WINDOW_CLOSED');
    expect(whatsapp.counters().accepted).toBe(accepted + 1);
    expect(await credits(server, user.id, 'WHATSAPP')).toEqual({ available: before.available - 1, reserved: 0 });
    const listed = (await list({ channel: 'whatsapp' })).items[0]!;
    expect(listed.answerable).toBe(false);
    expect(new Date(listed.answerableUntil!).getTime()).toBeLessThan(Date.now());
  });

  it('another user sees none of them: list empty, the reply 404 to read, mark and answer', async () => {
    const other = await userWithCredits(server);
    const asOther = asUser(server, other.token);
    const page = await asOther({ method: 'GET', url: '/api/v1/replies' });
    expect(page.json()).toEqual({ items: [], nextCursor: null });
    const id = byPhone(ana).id;
    const mark = await asOther({ method: 'PATCH', url: `/api/v1/replies/${id}`, payload: { handled: true } });
    expect(mark.statusCode).toBe(404);
    expect(mark.json().code).toBe('REPLY_NOT_FOUND');
    const answer = await asOther({ method: 'POST', url: `/api/v1/replies/${id}/answer`, payload: { text: 'Oi' } });
    expect(answer.statusCode).toBe(404);
    const csv = await asOther({ method: 'GET', url: '/api/v1/replies.csv' });
    expect(
      csv.body
        .replace(/^\ufeff/, '')
        .trim()
        .split('\r\n'),
    ).toHaveLength(1);
    expect((await list()).items.find((r) => r.id === id)?.handledAt).toBeNull();
  });

  it('a reply to a message sent through the API names the API and its externalId, not a campaign page', async () => {
    const dora = mobile();
    const sent = await answered(
      ecoa.POST('/api/v1/messages', {
        body: {
          channel: 'sms_short',
          to: dora,
          text: 'Seu pedido saiu para entrega',
          externalId: 'pedido-42',
          window: { days: [0, 1, 2, 3, 4, 5, 6], start: '00:00', end: '24:00' },
        },
      }),
    );
    expect(sent.statusCode, sent.body).toBe(202);
    const messageId = sent.data!.id;
    await waitForMessage(server, user, messageId);
    await server.providers.simulators.smsc!.sendMo({ from: dora.slice(1), to: '28282', text: 'Chega hoje?' });
    let reply: Reply | undefined;
    for (const deadline = Date.now() + 20_000; !reply && Date.now() < deadline; )
      reply = (await list({ channel: 'sms' })).items.find((r) => r.phone === dora);
    expect(reply).toMatchObject({ messageId, externalId: 'pedido-42', campaign: { kind: 'api' } });
    expect(byPhone(ana)).toMatchObject({ campaign: { kind: 'campaign' }, externalId: null });
    const csv = await as({ method: 'GET', url: '/api/v1/replies.csv?channel=sms' });
    expect(csv.body.split('\r\n').find((l) => l.includes(dora.slice(1)))).toContain(';Chega hoje?;não;API pedido-42;');
  });
});
