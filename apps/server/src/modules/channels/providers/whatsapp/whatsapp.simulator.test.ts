import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { closedAfterEach, simulatorControl } from '../http-kit/carrier-rig.test-support.ts';
import { startWhatsAppRig, type WhatsAppRig } from './whatsapp.test-support.ts';
import { templateRequest } from './whatsapp.wire.ts';

const rig = closedAfterEach(startWhatsAppRig);

const control = (r: WhatsAppRig, path: string, body?: unknown) => simulatorControl(r.simulator.url, path, body);

describe('WhatsApp simulator: the Graph API fake refuses what Meta refuses', () => {
  const send = (
    r: WhatsAppRig,
    body: unknown,
    headers: Record<string, string> = {},
    id = r.simulator.config.phoneNumberId,
  ) =>
    fetch(`${r.simulator.url}/v21.0/${id}/messages`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${r.simulator.config.accessToken}`,
        ...headers,
      },
      body: JSON.stringify(body),
    });
  const valid = templateRequest('5511999994001', { name: 'aviso', language: 'pt_BR', params: ['a'] });

  it('answers a template send like Graph: messaging_product, contacts, messages[0].id', async () => {
    const r = await rig();
    const res = await send(r, valid);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      messaging_product: 'whatsapp',
      contacts: [{ input: '5511999994001', wa_id: '5511999994001' }],
      messages: [{ id: expect.stringMatching(/^wamid\./), message_status: 'accepted' }],
    });
  });

  it.each([
    ['no bearer token', valid, { authorization: '' }, undefined, 401, 190],
    ['another phone number id', valid, {}, '42', 400, 100],
    // A free-form text only within 24 h of the number writing (this one never wrote): Graph's re-engagement error.
    ['a text message outside the window', { ...valid, type: 'text', text: { body: 'oi' } }, {}, undefined, 400, 131047],
    ['a template without a language', { ...valid, template: { name: 'aviso' } }, {}, undefined, 400, 100],
  ])('refuses %s with the Graph error JSON', async (_, body, headers, id, status, code) => {
    const r = await rig();
    const res = await send(r, body, headers, id);
    expect(res.status).toBe(status);
    expect(await res.json()).toEqual({
      error: expect.objectContaining({
        code,
        type: 'OAuthException',
        message: expect.any(String),
        fbtrace_id: expect.any(String),
      }),
    });
    expect(r.simulator.counters().accepted).toBe(0);
  });
});

describe('WhatsApp simulator: the control API', () => {
  it('counters, options, an inbound message, the handshake and reset over HTTP', async () => {
    const r = await rig({ numberOutcomes: { '+5511999994002': 'delivered' } });
    await r.provider.submit({
      id: randomUUID(),
      channel: 'whatsapp',
      to: '+5511999994002',
      content: { kind: 'whatsapp', template: { name: 'aviso', language: 'pt_BR', params: [] } },
    });
    await r.simulator.idle();
    const counters = await (await control(r, 'counters')).json();
    expect(counters).toMatchObject({ requests: 1, accepted: 1, callbacks: { delivered: 2, failed: 0 } });

    expect((await control(r, 'options', { throughputPerSecond: 1, duplicates: true })).status).toBe(200);
    expect((await control(r, 'options', { throughputPerSecond: -1 })).status).toBe(400);
    expect((await control(r, 'options', { noSuchOption: true })).status).toBe(400);

    expect((await control(r, 'inbound', { from: '+5511999994003', text: 'Oi!' })).status).toBe(200);
    await r.simulator.idle();
    expect(r.events.at(-1)).toMatchObject({ type: 'inbound', from: '+5511999994003', text: 'Oi!' });
    expect((await control(r, 'inbound', { from: 'nobody', text: '' })).status).toBe(400);

    expect(await (await control(r, 'verify-webhook')).json()).toMatchObject({ status: 200, verified: true });
    expect((await control(r, 'reset')).status).toBe(200);
    expect(await (await control(r, 'counters')).json()).toMatchObject({ requests: 0, accepted: 0, inbound: 0 });
    expect((await control(r, 'nothing')).status).toBe(404);
  });
});
