import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, signUpAndSignIn } from '../../../test/factories.test-support.ts';
import { dbKind } from '../../../test/server.test-support.ts';
import type { RunningServer } from '../../server.ts';
import {
  type ChannelsUser,
  credits,
  getMessage,
  sendAndWait,
  startChannelsServer,
  startIntegrationEndpoint,
  testSend,
  userWithCredits,
  waitForMessage,
} from './channels.test-support.ts';

/** A test send on each of the six channels, through the real adapters against their simulators. */
describe(`test sends (${dbKind})`, () => {
  let server: RunningServer;
  let user: ChannelsUser;
  let hook: Awaited<ReturnType<typeof startIntegrationEndpoint>>;

  beforeAll(async () => {
    server = await startChannelsServer();
    user = await userWithCredits(server);
    // The customer's URA integration endpoint.
    hook = await startIntegrationEndpoint();
  });
  afterAll(async () => {
    await server?.close();
    await hook?.close();
  });

  it('SMS short: 2 parts charged, sent over SMPP, delivered by its receipts', async () => {
    const text = `Olá! ${'Promoção de verão com 20% de desconto. '.repeat(2)}`; // accents → UCS-2, over 70 chars
    const message = await sendAndWait(server, user, { channel: 'sms_short', to: '(11) 98765-4321', text });
    expect(message).toMatchObject({ channel: 'sms_short', to: '+5511987654321', status: 'delivered', parts: 2 });
    expect(message.events.map((e) => e.status)).toEqual(['queued', 'submitting', 'sent', 'delivered']);
    expect(await credits(server, user.id, 'SMSSHORT')).toEqual({ available: 18, reserved: 0 });
    expect(server.providers.simulators.smsc!.counters().submits).toBe(2);
  });

  it('flash SMS, voice torpedo, URA, WhatsApp and RCS each reach delivered, one credit each', async () => {
    const sends = [
      { channel: 'sms_flash', to: '11987654321', text: 'Seu código: 123456' },
      { channel: 'voice_torpedo', to: '1140001234', tts: 'Olá, esta é uma mensagem da Ecoa.' },
      { channel: 'ura', to: '11987654321', tts: 'Tecle 1 para vendas.', options: ['1', '2'], integrationUrl: hook.url },
      { channel: 'whatsapp', to: '11987654321', template: { name: 'boas_vindas', language: 'pt_BR', params: ['Ana'] } },
      { channel: 'rcs', to: '11987654321', text: 'Olá via RCS' },
    ];
    const messages = await Promise.all(sends.map((s) => sendAndWait(server, user, s)));
    for (const m of messages) expect(m, m.channel).toMatchObject({ status: 'delivered', parts: 1 });
    const ura = messages.find((m) => m.channel === 'ura')!;
    expect(ura.events.find((e) => e.digits !== undefined)?.digits).toBe('1');
    for (const type of ['SMSFLASH', 'URA', 'URAINTEGRATION', 'WHATSAPP', 'RCS']) {
      expect(await credits(server, user.id, type), type).toEqual({ available: 19, reserved: 0 });
    }
    // The digit reached the customer's integration URL (a job, retried while it is down).
    const deadline = Date.now() + 10_000;
    while (hook.answers.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(hook.answers).toEqual([{ phone: '+5511987654321', digit: '1', campaignId: null }]);
    expect((await server.modules.ledger.reconcile(user.id)).ok).toBe(true);
  });

  it('refuses without credits (400, nothing created), a landline for SMS, an opted-out number, a bad phone', async () => {
    const poor = await signUpAndSignIn(server);
    const poorUser = { id: poor.user.id, token: poor.token };
    const before = await server.db.executeSql('select count(*)::int as n from messages where user_id = $1', [
      poor.user.id,
    ]);
    const noCredits = await testSend(server, poorUser, {
      channel: 'whatsapp',
      to: '11987654321',
      template: { name: 'x', language: 'pt_BR' },
    });
    expect(noCredits.statusCode).toBe(400);
    expect(noCredits.json()).toMatchObject({
      code: 'INSUFFICIENT_BALANCE',
      details: { type: 'WHATSAPP', available: 0, requested: 1 },
    });
    const after = await server.db.executeSql('select count(*)::int as n from messages where user_id = $1', [
      poor.user.id,
    ]);
    expect(after.rows).toEqual(before.rows);

    expect((await testSend(server, user, { channel: 'sms_short', to: '1140001234', text: 'oi' })).json().code).toBe(
      'MOBILE_REQUIRED',
    );
    expect((await testSend(server, user, { channel: 'sms_short', to: '(00) 1234-5678', text: 'oi' })).json().code).toBe(
      'INVALID_PHONE',
    );
    await server.app.inject({
      method: 'POST',
      url: '/api/v1/opt-outs',
      headers: bearer(user.token),
      payload: { phones: ['11911112222'] },
    });
    const opted = await testSend(server, user, { channel: 'sms_short', to: '11911112222', text: 'oi' });
    expect(opted.statusCode).toBe(409);
    expect(opted.json().code).toBe('RECIPIENT_OPTED_OUT');
    expect((await testSend(server, user, { channel: 'voice_torpedo', to: '11987654321' })).json().code).toBe(
      'VOICE_PROMPT_REQUIRED',
    );
  });

  it('a carrier that refuses: failed with its reason, and the credits come back', async () => {
    const smsc = server.providers.simulators.smsc!;
    smsc.setOptions({ rejectStatus: 0x0b });
    try {
      const before = await credits(server, user.id, 'SMSSHORT');
      const message = await sendAndWait(server, user, { channel: 'sms_short', to: '11987654321', text: 'oi' });
      expect(message).toMatchObject({ status: 'failed', reason: 'SMPP_0x0000000B' });
      expect(await credits(server, user.id, 'SMSSHORT')).toEqual(before);
    } finally {
      smsc.setOptions({ rejectStatus: null });
    }
  });

  it('a bind dropped with the message in flight: unknown, paid (the carrier may have sent it), never re-sent', async () => {
    const smsc = server.providers.simulators.smsc!;
    const before = await credits(server, user.id, 'SMSSHORT');
    const received = smsc.counters().submits;
    smsc.setOptions({ dropAfterSubmits: 1 });
    const message = await sendAndWait(server, user, { channel: 'sms_short', to: '11987654321', text: 'talvez' });
    expect(message).toMatchObject({ status: 'unknown', reason: 'SMPP_BIND_LOST' });
    expect(await credits(server, user.id, 'SMSSHORT')).toEqual({ available: before.available - 1, reserved: 0 });
    expect(smsc.counters().submits - received).toBe(1);
  });

  it('a receipt before the submit response: stored and applied, the message ends delivered', async () => {
    const smsc = server.providers.simulators.smsc!;
    smsc.setOptions({ receiptBeforeResponse: true });
    try {
      const message = await sendAndWait(server, user, { channel: 'sms_short', to: '11987654321', text: 'rápido' });
      expect(message.status).toBe('delivered');
      expect(message.events.map((e) => e.status)).toEqual(['queued', 'submitting', 'sent', 'delivered']);
    } finally {
      smsc.setOptions({ receiptBeforeResponse: false });
    }
  });

  it('a long SMS whose second part is undelivered fails with that part’s reason', async () => {
    const smsc = server.providers.simulators.smsc!;
    smsc.setOptions({ outcomes: { delivered: 0, undelivered: 1, expired: 0, rejected: 0 } });
    try {
      const message = await sendAndWait(server, user, {
        channel: 'sms_short',
        to: '11987654321',
        text: 'x'.repeat(300),
      });
      expect(message.parts).toBe(2);
      expect(message.status).toBe('failed');
      expect(message.reason).toMatch(/^SMPP_UNDELIV/);
    } finally {
      smsc.setOptions({ outcomes: { delivered: 1, undelivered: 0, expired: 0, rejected: 0 } });
    }
  });

  it('WhatsApp webhooks duplicated and out of order never move a message back; read is recorded once', async () => {
    const whatsapp = server.providers.simulators.whatsapp!;
    whatsapp.setOptions({
      duplicates: true,
      outOfOrder: true,
      outcomeMix: { delivered: 0, read: 1, notOnWhatsApp: 0, reengagement: 0 },
    });
    try {
      const res = await testSend(server, user, {
        channel: 'whatsapp',
        to: '11987654321',
        template: { name: 'oi', language: 'pt_BR' },
      });
      expect(res.statusCode, res.body).toBe(201);
      await whatsapp.idle();
      const message = await waitForMessage(server, user, res.json().id, (m) =>
        m.events.some((e) => e.status === 'read'),
      );
      expect(message.status).toBe('delivered');
      expect(message.events.filter((e) => e.status === 'read')).toHaveLength(1);
      expect(message.events.filter((e) => e.status === 'delivered')).toHaveLength(1);
    } finally {
      whatsapp.setOptions({
        duplicates: false,
        outOfOrder: false,
        outcomeMix: { delivered: 1, read: 0, notOnWhatsApp: 0, reengagement: 0 },
      });
    }
  });

  it('a reply “Sair” adds the sender to the opt-outs of the account that wrote to them', async () => {
    const phone = '11955554444';
    await sendAndWait(server, user, { channel: 'sms_short', to: phone, text: 'Oferta!' });
    await server.providers.simulators.smsc!.sendMo({ from: `55${phone}`, to: '28282', text: ' Sáir! ' });
    const deadline = Date.now() + 10_000;
    let rows: unknown[] = [];
    while (rows.length === 0 && Date.now() < deadline) {
      rows = (
        await server.db.executeSql('select source from opt_outs where user_id = $1 and phone = $2', [
          user.id,
          `+55${phone}`,
        ])
      ).rows;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(rows).toEqual([{ source: 'reply' }]);
    const inbound = await server.db.executeSql(
      'select user_id, text, opted_out from inbound_messages where from_phone = $1 and user_id = $2',
      [`+55${phone}`, user.id],
    );
    expect(inbound.rows).toEqual([{ user_id: user.id, text: ' Sáir! ', opted_out: true }]);
  });

  it('a reply with a NUL and control characters is stored clean, once', async () => {
    const phone = '11955553333';
    await sendAndWait(server, user, { channel: 'sms_short', to: phone, text: 'Oferta!' });
    await server.providers.simulators.smsc!.sendMo({
      from: `55${phone}`,
      to: '28282',
      text: 'ok\u0000 obrigado\u0007',
    });
    const deadline = Date.now() + 10_000;
    let rows: unknown[] = [];
    while (rows.length === 0 && Date.now() < deadline) {
      rows = (
        await server.db.executeSql('select text from inbound_messages where from_phone = $1 and user_id = $2', [
          `+55${phone}`,
          user.id,
        ])
      ).rows;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(rows).toEqual([{ text: 'ok obrigado' }]);
  });

  it('a forged WhatsApp webhook is refused (401) and changes nothing', async () => {
    const message = await sendAndWait(server, user, {
      channel: 'whatsapp',
      to: '11987654321',
      template: { name: 'oi', language: 'pt_BR' },
    });
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/webhooks/whatsapp/events',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': `sha256=${'0'.repeat(64)}` },
      payload: JSON.stringify({ object: 'whatsapp_business_account', entry: [] }),
    });
    expect(res.statusCode).toBe(401);
    expect(await getMessage(server, user, message.id)).toEqual(message);
  });

  it('a message is its owner’s alone', async () => {
    const message = await sendAndWait(server, user, { channel: 'sms_flash', to: '11987654321', text: 'só meu' });
    const stranger = await signUpAndSignIn(server);
    const res = await server.app.inject({
      method: 'GET',
      url: `/api/v1/messages/${message.id}`,
      headers: bearer(stranger.token),
    });
    expect(res.statusCode).toBe(404);
  });
});
