import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { OutboundMessage, StatusEvent } from '../../provider.ts';
import { closedAfterEach } from '../http-kit/carrier-rig.test-support.ts';
import { startWhatsAppRig, type WhatsAppRig } from './whatsapp.test-support.ts';
import { signWhatsAppBody, statusNotification, textMessageNotification } from './whatsapp.wire.ts';

const rig = closedAfterEach(startWhatsAppRig);

const message = (to: string): OutboundMessage => ({
  id: randomUUID(),
  channel: 'whatsapp',
  to,
  content: { kind: 'whatsapp', template: { name: 'boas_vindas', language: 'pt_BR', params: ['Ana'] } },
});

function post(r: WhatsAppRig, body: string, signature?: string) {
  return fetch(r.webhookUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(signature ? { 'x-hub-signature-256': signature } : {}) },
    body,
  });
}

const statusesOf = (r: WhatsAppRig, wamid: string | undefined) =>
  r.events.filter((e): e is StatusEvent => e.type === 'status' && e.providerMessageId === wamid);

describe('WhatsApp webhook: subscription handshake', () => {
  it('answers hub.challenge as text/plain to the right verify token', async () => {
    const r = await rig();
    expect(await r.simulator.verifyWebhook()).toMatchObject({ status: 200, verified: true });
  });

  it('refuses a wrong verify token or another mode with 403', async () => {
    const r = await rig();
    const url = (mode: string, token: string) =>
      `${r.webhookUrl}?hub.mode=${mode}&hub.verify_token=${encodeURIComponent(token)}&hub.challenge=1158201444`;
    const wrong = await fetch(url('subscribe', 'guess'));
    expect(wrong.status).toBe(403);
    expect(await wrong.text()).not.toContain('1158201444');
    expect((await fetch(url('unsubscribe', r.simulator.config.verifyToken))).status).toBe(403);
    const right = await fetch(url('subscribe', r.simulator.config.verifyToken));
    expect(right.status).toBe(200);
    expect(right.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await right.text()).toBe('1158201444');
  });
});

describe('WhatsApp webhook: signatures', () => {
  const body = JSON.stringify(
    statusNotification({
      phoneNumberId: '106540352242922',
      wamid: 'wamid.TEST',
      status: 'delivered',
      timestamp: 1_760_000_000,
      recipient: '5511999990030',
    }),
  );

  it('takes a notification signed with the app secret', async () => {
    const r = await rig();
    const res = await post(r, body, signWhatsAppBody(r.simulator.config.appSecret, body));
    expect(res.status).toBe(200);
    expect(r.events).toEqual([
      {
        type: 'status',
        provider: 'whatsapp',
        providerMessageId: 'wamid.TEST',
        status: 'delivered',
        at: new Date(1_760_000_000_000),
      },
    ]);
  });

  it.each([
    ['no signature', undefined],
    ['another secret', signWhatsAppBody('not-the-app-secret', body)],
    ['the signature of another body', signWhatsAppBody('simulator-whatsapp-app-secret', `${body} `)],
    ['a malformed header', 'sha256=zz'],
    ['the bare hex without sha256=', signWhatsAppBody('simulator-whatsapp-app-secret', body).slice(7)],
  ])('refuses %s with 401 and emits nothing', async (_, signature) => {
    const r = await rig();
    const res = await post(r, body, signature);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'WEBHOOK_SIGNATURE_INVALID' });
    expect(r.events).toEqual([]);
  });

  it('end to end: a simulator signing with the wrong secret is refused, nothing is emitted', async () => {
    const r = await rig({ webhookSecret: 'rotated-elsewhere', numberOutcomes: { '+5511999990031': 'read' } });
    await r.provider.submit(message('+5511999990031'));
    await r.simulator.idle();
    expect(r.simulator.counters().callbacks).toEqual({ delivered: 0, failed: 3, lastFailureStatus: 401 });
    expect(r.events).toEqual([]);
  });

  it('a signed body that is not JSON is 400; signed JSON it does not understand is taken and ignored', async () => {
    const r = await rig();
    const secret = r.simulator.config.appSecret;
    expect((await post(r, 'not json', signWhatsAppBody(secret, 'not json'))).status).toBe(400);
    const unknown = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [{ changes: [{ value: { foo: 1 } }] }],
    });
    expect((await post(r, unknown, signWhatsAppBody(secret, unknown))).status).toBe(200);
    expect(r.events).toEqual([]);
  });
});

describe('WhatsApp webhook: events as received', () => {
  it('passes duplicated status webhooks on, each one (the core keeps the highest state)', async () => {
    const r = await rig({ duplicates: true, numberOutcomes: { '+5511999990032': 'read' } });
    const [wamid] = (await r.provider.submit(message('+5511999990032'))).providerMessageIds;
    await r.simulator.idle();
    expect(statusesOf(r, wamid).map((e) => e.status)).toEqual([
      'sent',
      'sent',
      'delivered',
      'delivered',
      'read',
      'read',
    ]);
  });

  it('passes out-of-order status webhooks on in arrival order, each with its own time', async () => {
    const r = await rig({ outOfOrder: true, numberOutcomes: { '+5511999990033': 'read' } });
    const [wamid] = (await r.provider.submit(message('+5511999990033'))).providerMessageIds;
    await r.simulator.idle();
    const events = statusesOf(r, wamid);
    expect(events.map((e) => e.status)).toEqual(['read', 'delivered', 'sent']);
    expect(events[0]!.at.getTime()).toBeGreaterThan(events[2]!.at.getTime());
  });

  it('an inbound text becomes an InboundEvent from the E.164 number', async () => {
    const r = await rig();
    expect(await r.simulator.sendInbound({ from: '+5511999990034', text: 'Quero saber mais\u0000!' })).toEqual({
      delivered: true,
      status: 200,
    });
    expect(r.events).toEqual([
      {
        type: 'inbound',
        provider: 'whatsapp',
        from: '+5511999990034',
        text: 'Quero saber mais!',
        at: expect.any(Date),
      },
    ]);
  });

  it("ignores another business number's events, and events with no usable id or time", async () => {
    const r = await rig();
    const secret = r.simulator.config.appSecret;
    const other = statusNotification({
      phoneNumberId: '999',
      wamid: 'wamid.X',
      status: 'read',
      timestamp: 1,
      recipient: '1',
    });
    const broken = statusNotification({
      phoneNumberId: '106540352242922',
      wamid: 'wamid.Y',
      status: 'read',
      timestamp: 1,
      recipient: '1',
    });
    (broken.entry[0]!.changes[0]!.value as unknown as { statuses: { timestamp: string }[] }).statuses[0]!.timestamp =
      'soon';
    const inboundElsewhere = textMessageNotification({
      phoneNumberId: '999',
      from: '5511999990035',
      text: 'oi',
      wamid: 'wamid.Z',
      timestamp: 1,
    });
    for (const doc of [other, broken, inboundElsewhere]) {
      const body = JSON.stringify(doc);
      expect((await post(r, body, signWhatsAppBody(secret, body))).status).toBe(200);
    }
    expect(r.events).toEqual([]);
  });

  it('answers 503 while the events cannot be stored, so Meta delivers them again', async () => {
    const r = await rig({ callbackRetries: 2, numberOutcomes: { '+5511999990036': 'delivered' } });
    let failures = 1;
    const stored: string[] = [];
    r.provider.onEvent(async (event) => {
      if (failures-- > 0) throw new Error('database away');
      if (event.type === 'status') stored.push(event.status);
    });
    await r.provider.submit(message('+5511999990036'));
    await r.simulator.idle();
    expect(stored).toEqual(['sent', 'delivered']);
    expect(r.simulator.counters().callbacks).toMatchObject({ delivered: 2, failed: 0 });
  });
});
