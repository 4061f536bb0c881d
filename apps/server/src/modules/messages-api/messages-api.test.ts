import type { SendMessageRequest } from '@ecoa/shared';
import { describe, expect, it } from 'vitest';
import { openBeforeAll } from '../../../test/hooks.test-support.ts';
import { dbKind } from '../../../test/server.test-support.ts';
import type { RunningServer } from '../../server.ts';
import { mobile, startCampaignsServer } from '../campaigns/campaigns.test-support.ts';
import { getMessage, userWithCredits, waitForMessage } from '../channels/channels.test-support.ts';
import { messagesApi, smsCredits } from './messages-api.test-support.ts';

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

describe(`the sending API (${dbKind})`, () => {
  let server: RunningServer;
  openBeforeAll(
    () => startCampaignsServer(),
    (opened) => (server = opened),
  );

  it('sends one SMS through the SMSC simulator: 202 queued, then delivered, paid once, not a campaign to the user', async () => {
    const user = await userWithCredits(server, 20);
    const api = messagesApi(server, user.token);
    const submits = server.providers.simulators.smsc!.counters().submits;
    const to = mobile();

    const res = await api.send({
      channel: 'sms_short',
      to,
      text: 'Seu pedido {pedido} saiu',
      variables: { pedido: '42' },
      externalId: 'pedido-42',
    });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.data).toMatchObject({ status: 'queued', parts: 1, credits: 1 });
    const { id } = res.data!;

    const delivered = await waitForMessage(server, user, id);
    expect(delivered).toMatchObject({ to, status: 'delivered', externalId: 'pedido-42', parts: 1 });
    expect(delivered.batchId).toEqual(expect.any(String));
    expect(server.providers.simulators.smsc!.counters().submits - submits).toBe(1);
    const { rows } = await server.db.executeSql('select content from messages where id = $1', [id]);
    expect((rows[0] as { content: { text: string } }).content.text).toBe('Seu pedido 42 saiu');
    // Captured once the batch settled and completed: nothing left reserved.
    await expect.poll(() => smsCredits(server, user.id)).toEqual({ available: 19, reserved: 0, total: 19 });
    // Not among the user's campaigns.
    const campaigns = await server.app.inject({
      method: 'GET',
      url: '/api/v1/campaigns',
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(campaigns.json().total).toBe(0);
  });

  it('sends WhatsApp templates, RCS texts and voice torpedoes by the same route, each paid in its channel’s credits', async () => {
    const user = await userWithCredits(server, 5);
    const api = messagesApi(server, user.token);
    const bodies = [
      {
        channel: 'whatsapp',
        to: mobile(),
        template: { name: 'pedido_enviado', language: 'pt_BR', params: ['{pedido}'] },
        variables: { pedido: '7' },
      },
      { channel: 'rcs', to: mobile(), rcs: { text: 'Seu pedido saiu' } },
      { channel: 'voice_torpedo', to: mobile(), tts: 'Seu pedido saiu para entrega' },
    ] satisfies SendMessageRequest[];
    for (const body of bodies) {
      const res = await api.send(body);
      expect(res.statusCode, res.body).toBe(202);
      expect(await waitForMessage(server, user, res.data!.id)).toMatchObject({
        channel: body.channel,
        status: 'delivered',
      });
    }
    const balances = await server.modules.ledger.getBalances(user.id);
    expect([balances.WHATSAPP, balances.RCS, balances.URA]).toEqual([
      { available: 4, reserved: 0 },
      { available: 4, reserved: 0 },
      { available: 4, reserved: 0 },
    ]);
  });

  it('refuses a single message for its recipient, its content or its schedule, nothing reserved', async () => {
    const user = await userWithCredits(server, 5);
    const api = messagesApi(server, user.token);
    const refused = [
      [{ channel: 'sms_short', to: '123', text: 'Oi' }, 400, 'INVALID_PHONE'],
      [{ channel: 'sms_short', to: '1133334444', text: 'Oi' }, 400, 'MOBILE_REQUIRED'],
      [{ channel: 'sms_short', to: mobile() }, 400, 'TEXT_REQUIRED'],
      [{ channel: 'whatsapp', to: mobile() }, 400, 'TEMPLATE_REQUIRED'],
      [
        { channel: 'sms_short', to: mobile(), text: 'Oi', scheduledAt: '2020-01-01T10:00:00Z' },
        400,
        'SCHEDULE_IN_PAST',
      ],
    ] as const;
    for (const [body, status, code] of refused) {
      const res = await api.send(body);
      expect([res.statusCode, res.error?.code], res.body).toEqual([status, code]);
    }
    expect(await smsCredits(server, user.id)).toEqual({ available: 5, reserved: 0, total: 5 });
  });

  it('a batch refuses invalid, landline, opted-out and repeated numbers one by one, and queues the rest', async () => {
    const user = await userWithCredits(server, 20);
    const api = messagesApi(server, user.token);
    const [a, b, out] = [mobile(), mobile(), mobile()];
    await server.modules.optOuts.addReply(user.id, out);

    const res = await api.batch({
      channel: 'sms_short',
      text: 'Olá {nome}',
      scheduledAt: inAnHour(),
      messages: [
        { to: a, variables: { nome: 'Ana' }, externalId: 'a' },
        { to: 'not a phone' },
        { to: out },
        { to: `0${a.slice(3)}` }, // the same number in another spelling
        { to: '1133334444' },
        { to: b, externalId: 'b' },
      ],
    });
    expect(res.statusCode, res.body).toBe(202);
    const body = res.data!;
    expect(body.accepted).toEqual([
      { index: 0, id: expect.any(String), to: a, externalId: 'a' },
      { index: 5, id: expect.any(String), to: b, externalId: 'b' },
    ]);
    expect(body.rejected.map((r: { index: number; code: string }) => [r.index, r.code])).toEqual([
      [1, 'INVALID_PHONE'],
      [2, 'RECIPIENT_OPTED_OUT'],
      [3, 'DUPLICATE_RECIPIENT'],
      [4, 'MOBILE_REQUIRED'],
    ]);
    expect(body.rejected[0]?.message).toBe('Número de telefone inválido.');
    expect(body.credits).toBe(2);
    expect(await smsCredits(server, user.id)).toEqual({ available: 18, reserved: 2, total: 20 });
    const ana = await getMessage(server, user, body.accepted[0]!.id);
    expect(ana).toMatchObject({ status: 'queued', externalId: 'a', batchId: body.batchId });
  });

  it('a batch the balance cannot cover is refused whole with the exact shortfall', async () => {
    const user = await userWithCredits(server, 2);
    const api = messagesApi(server, user.token);
    const res = await api.batch({
      channel: 'sms_short',
      text: 'Oi',
      messages: [{ to: mobile() }, { to: mobile() }, { to: mobile() }],
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.error).toMatchObject({
      code: 'INSUFFICIENT_BALANCE',
      details: { requested: 3, available: 2, shortfall: 1 },
    });
    expect(await smsCredits(server, user.id)).toEqual({ available: 2, reserved: 0, total: 2 });
    expect((await api.list({ limit: 10 })).data!.items).toEqual([]);
  });

  it('accepts a batch of 10,000 numbers in one request', async () => {
    const user = await userWithCredits(server, 10_000);
    const api = messagesApi(server, user.token);
    const messages = Array.from({ length: 10_000 }, () => ({ to: mobile() }));
    const res = await api.batch({ channel: 'sms_short', text: 'Oi', scheduledAt: inAnHour(), messages });
    expect(res.statusCode, res.body).toBe(202);
    const body = res.data!;
    expect([body.accepted.length, body.rejected.length, body.credits]).toEqual([10_000, 0, 10_000]);
    expect(new Set(body.accepted.map((m: { id: string }) => m.id)).size).toBe(10_000);
    expect(await smsCredits(server, user.id)).toEqual({ available: 0, reserved: 10_000, total: 10_000 });
  });

  it('Idempotency-Key: the same body answers the first result; another body is 409; twins at once queue once', async () => {
    const user = await userWithCredits(server, 20);
    const api = messagesApi(server, user.token);
    const body = {
      channel: 'sms_short' as const,
      text: 'Oi',
      scheduledAt: inAnHour(),
      messages: [{ to: mobile() }, { to: 'x' }],
    };

    const first = await api.batch(body, 'lote-1');
    expect(first.statusCode, first.body).toBe(202);
    const again = await api.batch(body, 'lote-1');
    expect([again.statusCode, again.data]).toEqual([202, first.data]);
    const other = await api.batch({ ...body, text: 'Outro' }, 'lote-1');
    expect([other.statusCode, other.error?.code]).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);
    // The single route keeps its own answers under its own keys.
    const single = { channel: 'sms_short' as const, to: mobile(), text: 'Oi', scheduledAt: inAnHour() };
    const one = await api.send(single, 'msg-1');
    expect((await api.send(single, 'msg-1')).data).toEqual(one.data);

    const twins = await Promise.all([
      api.batch({ ...body, messages: [{ to: mobile() }] }, 'lote-2'),
      api.batch({ ...body, messages: [{ to: mobile() }] }, 'lote-3'),
    ]);
    expect(twins.map((t) => t.statusCode)).toEqual([202, 202]);
    const same = { ...body, messages: [{ to: mobile() }] };
    const [x, y] = await Promise.all([api.batch(same, 'lote-4'), api.batch(same, 'lote-4')]);
    expect([x.statusCode, y.statusCode]).toEqual([202, 202]);
    expect(y.data).toEqual(x.data);
    // 1 (lote-1) + 1 (msg-1) + 2 (lote-2, lote-3) + 1 (lote-4, once).
    expect(await smsCredits(server, user.id)).toEqual({ available: 15, reserved: 5, total: 20 });
  });

  it('DELETE cancels a queued message and releases exactly its credits; a sent one is 409', async () => {
    const user = await userWithCredits(server, 20);
    const api = messagesApi(server, user.token);
    const long = 'x'.repeat(200); // two parts
    const res = await api.batch({
      channel: 'sms_short',
      text: long,
      scheduledAt: inAnHour(),
      messages: [{ to: mobile() }, { to: mobile() }],
    });
    expect(res.statusCode, res.body).toBe(202);
    const { accepted } = res.data!;
    const [first, second] = [accepted[0]!, accepted[1]!];
    expect(await smsCredits(server, user.id)).toEqual({ available: 16, reserved: 4, total: 20 });

    const canceled = await api.cancel(first.id);
    expect([canceled.statusCode, canceled.data]).toEqual([200, { id: first.id, status: 'canceled' }]);
    expect(await smsCredits(server, user.id)).toEqual({ available: 18, reserved: 2, total: 20 });
    expect((await getMessage(server, user, first.id)).status).toBe('canceled');
    const twice = await api.cancel(first.id);
    expect([twice.statusCode, twice.error?.code]).toEqual([409, 'MESSAGE_NOT_CANCELABLE']);
    // The ledger's entries for the batch add up: 4 reserved, 2 of them released, the rest still held.
    const { rows } = await server.db.executeSql(
      `select kind, sum(reserved_delta)::int as reserved, sum(amount)::int as amount from ledger_entries
        where reference_type = 'campaign' and reference_id = $1 group by kind order by kind`,
      [res.data!.batchId],
    );
    expect(rows).toEqual([
      { kind: 'RELEASE', reserved: -2, amount: 2 },
      { kind: 'RESERVE', reserved: 4, amount: -4 },
    ]);
    expect((await getMessage(server, user, second.id)).status).toBe('queued');

    // A message already handed to the carrier is not canceled.
    const sent = await api.send({ channel: 'sms_short', to: mobile(), text: 'Oi' });
    await waitForMessage(server, user, sent.data!.id);
    const late = await api.cancel(sent.data!.id);
    expect([late.statusCode, late.error?.code]).toEqual([409, 'MESSAGE_NOT_CANCELABLE']);
    // Someone else's message, or a made-up id: not found.
    const stranger = await userWithCredits(server, 1);
    expect((await messagesApi(server, stranger.token).cancel(second.id)).statusCode).toBe(404);
  });

  it('lists the messages newest first in keyset pages, filtered by status, channel and externalId', async () => {
    const user = await userWithCredits(server, 20);
    const api = messagesApi(server, user.token);
    const res = await api.batch({
      channel: 'sms_short',
      text: 'Oi',
      scheduledAt: inAnHour(),
      messages: Array.from({ length: 5 }, (_, i) => ({ to: mobile(), externalId: `ref-${i}` })),
    });
    expect(res.statusCode, res.body).toBe(202);
    const ids = new Set(res.data!.accepted.map((m) => m.id));

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await api.list({ limit: 2, ...(cursor ? { cursor } : {}) });
      expect(page.statusCode, page.body).toBe(200);
      const { items, nextCursor } = page.data!;
      expect(items.length).toBeLessThanOrEqual(2);
      seen.push(...items.map((m) => m.id));
      cursor = nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(new Set(seen)).toEqual(ids);

    const one = (await api.list({ externalId: 'ref-3' })).data!;
    expect(one.items).toHaveLength(1);
    expect(one.items[0]).toMatchObject({
      externalId: 'ref-3',
      status: 'queued',
      channel: 'sms_short',
      batchId: res.data!.batchId,
    });
    // Exactly the API's MessageListItem, each field of its row.
    expect(one.items[0]).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      channel: 'sms_short',
      to: expect.stringMatching(/^\+55\d{10,11}$/),
      status: 'queued',
      reason: null,
      parts: 1,
      externalId: 'ref-3',
      batchId: res.data!.batchId,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      finishedAt: null,
    });
    expect((await api.list({ status: 'delivered' })).data!.items).toEqual([]);
    expect((await api.list({ channel: 'whatsapp' })).data!.items).toEqual([]);
    expect((await api.list({ status: 'queued', channel: 'sms_short', limit: 500 })).data!.items).toHaveLength(5);
    const bad = await api.list({ cursor: 'bm90LWEtY3Vyc29y' });
    expect([bad.statusCode, bad.error?.code]).toEqual([400, 'INVALID_CURSOR']);
  });
});
