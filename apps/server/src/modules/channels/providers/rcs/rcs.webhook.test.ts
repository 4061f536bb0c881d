import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { StatusEvent } from '../../provider.ts';
import { closedAfterEach } from '../http-kit/carrier-rig.test-support.ts';
import { type RcsRig, rcsText, startRcsRig } from './rcs.test-support.ts';
import { rbmDelivery, signRcsData, userEvent, userMessage } from './rcs.wire.ts';

const rig = closedAfterEach(startRcsRig);

function post(r: RcsRig, body: string, headers: Record<string, string> = {}) {
  return fetch(r.webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
}

const statusesOf = (r: RcsRig, id: string) =>
  r.events.filter((e): e is StatusEvent => e.type === 'status' && e.providerMessageId === id).map((e) => e.status);

describe('RCS webhook: verification of the URL', () => {
  it('echoes the secret when the client token is ours', async () => {
    const r = await rig();
    expect(await r.simulator.verifyWebhook()).toMatchObject({ status: 200, verified: true });
  });

  it('recognises the verification by its body too, and refuses another client token with 403', async () => {
    const r = await rig();
    const ok = await post(r, JSON.stringify({ clientToken: r.simulator.config.webhookToken, secret: 's3cr3t' }));
    expect([ok.status, await ok.text()]).toEqual([200, 's3cr3t']);
    const wrong = await post(r, JSON.stringify({ clientToken: 'guess', secret: 's3cr3t' }), {
      'x-goog-webhook-type': 'verification',
    });
    expect(wrong.status).toBe(403);
    expect(await wrong.text()).not.toContain('s3cr3t');
  });
});

describe('RCS webhook: signatures (base64 HMAC-SHA512 of the decoded data, keyed by the client token)', () => {
  const event = userEvent({
    agentId: 'ecoa-simulador_abcd1234_agent@rbm.goog',
    phone: '+5511999993001',
    messageId: 'b1c7f1a4-6f52-4a3e-9a57-0d7c1d8e2f10',
    type: 'DELIVERED',
    at: new Date('2026-03-01T12:00:00.123Z'),
  });

  it('takes a delivery signed with the client token', async () => {
    const r = await rig();
    const { body, signature } = rbmDelivery(r.simulator.config.webhookToken, 'agent', event);
    expect((await post(r, body, { 'x-goog-signature': signature })).status).toBe(200);
    expect(r.events).toEqual([
      {
        type: 'status',
        provider: 'rcs',
        providerMessageId: event.messageId,
        status: 'delivered',
        at: new Date('2026-03-01T12:00:00.123Z'),
      },
    ]);
  });

  it('takes the same signature without its base64 padding', async () => {
    const r = await rig();
    const { body, signature } = rbmDelivery(r.simulator.config.webhookToken, 'agent', event);
    expect((await post(r, body, { 'x-goog-signature': signature.replace(/=+$/, '') })).status).toBe(200);
    expect(r.events).toHaveLength(1);
  });

  it.each([
    ['no signature', () => undefined],
    ['another token', () => signRcsData('not-our-token', Buffer.from(JSON.stringify(event)))],
    ['the signature of other data', (token: string) => signRcsData(token, Buffer.from(`${JSON.stringify(event)} `))],
    [
      'a signature over the base64 text instead of the decoded bytes',
      (token: string) => signRcsData(token, Buffer.from(Buffer.from(JSON.stringify(event)).toString('base64'))),
    ],
    ['a malformed header', () => 'not base64!'],
  ])('refuses %s with 401 and emits nothing', async (_, sign) => {
    const r = await rig();
    const { body } = rbmDelivery(r.simulator.config.webhookToken, 'agent', event);
    const signature = sign(r.simulator.config.webhookToken);
    const res = await post(r, body, signature ? { 'x-goog-signature': signature } : {});
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'WEBHOOK_SIGNATURE_INVALID' });
    expect(r.events).toEqual([]);
  });

  it('end to end: events signed with the wrong token are refused, nothing is emitted', async () => {
    const r = await rig({ webhookSecret: 'an-old-token', numberOutcomes: { '+5511999993002': 'read' } });
    await r.provider.submit(rcsText('+5511999993002'));
    await r.simulator.idle();
    expect(r.simulator.counters().callbacks).toEqual({ delivered: 0, failed: 2, lastFailureStatus: 401 });
    expect(r.events).toEqual([]);
  });

  it('an envelope without data is 400; signed data that is not JSON is 400', async () => {
    const r = await rig();
    expect((await post(r, JSON.stringify({ message: {} }))).status).toBe(400);
    const junk = Buffer.from('not json');
    const body = JSON.stringify({ message: { data: junk.toString('base64') } });
    const signature = signRcsData(r.simulator.config.webhookToken, junk);
    expect((await post(r, body, { 'x-goog-signature': signature })).status).toBe(400);
    expect(r.events).toEqual([]);
  });
});

describe('RCS webhook: events as received', () => {
  it('passes duplicated events on, each one', async () => {
    const r = await rig({ duplicates: true, numberOutcomes: { '+5511999993003': 'read' } });
    const message = rcsText('+5511999993003');
    await r.provider.submit(message);
    await r.simulator.idle();
    expect(statusesOf(r, message.id)).toEqual(['delivered', 'delivered', 'read', 'read']);
  });

  it('passes READ before DELIVERED on in arrival order, each with its own time', async () => {
    const r = await rig({ outOfOrder: true, numberOutcomes: { '+5511999993004': 'read' } });
    const message = rcsText('+5511999993004');
    await r.provider.submit(message);
    await r.simulator.idle();
    expect(statusesOf(r, message.id)).toEqual(['read', 'delivered']);
    const [read, delivered] = r.events as StatusEvent[];
    expect(read!.at.getTime()).toBeGreaterThan(delivered!.at.getTime());
  });

  it('a user’s text, and a chosen suggestion, become InboundEvents', async () => {
    const r = await rig();
    expect(await r.simulator.sendInbound({ from: '+5511999993005', text: 'Quero\u0007 falar' })).toEqual({
      delivered: true,
      status: 200,
    });
    const token = r.simulator.config.webhookToken;
    const agentId = r.simulator.config.agentId;
    const chosen = {
      ...userMessage({ agentId, phone: '+5511999993006', text: '', at: new Date('2026-03-01T12:00:00Z') }),
      text: undefined,
      suggestionResponse: { postbackData: 'Já paguei', text: 'Já paguei', type: 'REPLY' },
    };
    const { body, signature } = rbmDelivery(token, agentId, chosen);
    expect((await post(r, body, { 'x-goog-signature': signature })).status).toBe(200);
    expect(r.events).toEqual([
      { type: 'inbound', provider: 'rcs', from: '+5511999993005', text: 'Quero falar', at: expect.any(Date) },
      {
        type: 'inbound',
        provider: 'rcs',
        from: '+5511999993006',
        text: 'Já paguei',
        at: new Date('2026-03-01T12:00:00Z'),
      },
    ]);
  });

  it('ignores IS_TYPING and another agent’s events; maps an expired-and-revoked message to expired', async () => {
    const r = await rig();
    const token = r.simulator.config.webhookToken;
    const agentId = r.simulator.config.agentId;
    const at = new Date('2026-03-01T12:00:00Z');
    const messageId = randomUUID();
    const payloads = [
      userEvent({ agentId, phone: '+5511999993007', messageId, type: 'IS_TYPING', at }),
      userEvent({ agentId: 'someone-else@rbm.goog', phone: '+5511999993007', messageId, type: 'READ', at }),
      {
        phoneNumber: '+5511999993007',
        messageId,
        agentId,
        eventType: 'TTL_EXPIRATION_REVOKED',
        eventId: 'e',
        sendTime: at.toISOString(),
      },
    ];
    for (const payload of payloads) {
      const { body, signature } = rbmDelivery(token, agentId, payload);
      expect((await post(r, body, { 'x-goog-signature': signature })).status).toBe(200);
    }
    expect(r.events).toEqual([
      {
        type: 'status',
        provider: 'rcs',
        providerMessageId: messageId,
        status: 'expired',
        reason: 'RCS_TTL_EXPIRATION_REVOKED',
        at,
      },
    ]);
  });
});
