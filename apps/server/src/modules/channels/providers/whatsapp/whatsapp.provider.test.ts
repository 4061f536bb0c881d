import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { OutboundMessage } from '../../provider.ts';
import { closedAfterEach, rejection } from '../http-kit/carrier-rig.test-support.ts';
import { listen } from '../http-kit/simulator-kit.ts';
import { createWhatsAppProvider } from './whatsapp.provider.ts';
import { startWhatsAppRig } from './whatsapp.test-support.ts';

const rig = closedAfterEach(startWhatsAppRig);

function message(to: string, params = ['Ana', 'R$ 10,00']): OutboundMessage {
  return {
    id: randomUUID(),
    channel: 'whatsapp',
    to,
    content: { kind: 'whatsapp', template: { name: 'cobranca_aviso', language: 'pt_BR', params } },
  };
}

describe('WhatsApp adapter against its simulator (Cloud API over HTTP)', () => {
  it('sends a template and follows it to read: wamid from the answer, statuses from the signed webhook', async () => {
    const r = await rig({ numberOutcomes: { '+5511999990001': 'read' } });
    const result = await r.provider.submit(message('+5511999990001'));
    expect(result.providerMessageIds).toHaveLength(1);
    const [wamid] = result.providerMessageIds;
    expect(wamid).toMatch(/^wamid\./);
    await r.simulator.idle();
    const statuses = r.events.filter((e) => e.type === 'status' && e.providerMessageId === wamid);
    expect(statuses.map((e) => e.type === 'status' && e.status)).toEqual(['sent', 'delivered', 'read']);
    expect(r.simulator.counters().destinations['+5511999990001']).toEqual({ received: 1, accepted: 1, duplicates: 0 });
  });

  it('a number not on WhatsApp fails with WHATSAPP_131026, one outside the window with WHATSAPP_131047', async () => {
    const r = await rig({ numberOutcomes: { '+5511999990002': 'not_on_whatsapp', '+5511999990003': 'reengagement' } });
    const notUser = (await r.provider.submit(message('+5511999990002'))).providerMessageIds[0];
    const window = (await r.provider.submit(message('+5511999990003'))).providerMessageIds[0];
    await r.simulator.idle();
    expect(r.events).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ providerMessageId: notUser, status: 'failed', reason: 'WHATSAPP_131026' }),
        expect.objectContaining({ providerMessageId: window, status: 'failed', reason: 'WHATSAPP_131047' }),
      ]),
    );
  });

  it('a free-form text (the inbox answer) is taken only within 24 hours of the number writing: else WHATSAPP_131047', async () => {
    const r = await rig();
    const text = (to: string): OutboundMessage => ({
      id: randomUUID(),
      channel: 'whatsapp',
      to,
      content: { kind: 'whatsapp_text', text: 'Olá! Como posso ajudar?' },
    });
    const refused = await rejection(r.provider.submit(text('+5511999990020')));
    expect(refused.reason).toBe('WHATSAPP_131047');
    expect(r.simulator.counters().destinations['+5511999990020']).toMatchObject({ received: 1, accepted: 0 });
    await r.simulator.sendInbound({ from: '+5511999990020', text: 'Oi' });
    const taken = await r.provider.submit(text('+5511999990020'));
    expect(taken.providerMessageIds[0]).toMatch(/^wamid\./);
    expect(r.simulator.counters().destinations['+5511999990020']).toMatchObject({ received: 2, accepted: 1 });
  });

  it('counts the same template to the same number twice as a duplicate', async () => {
    const r = await rig({ numberOutcomes: { '+5511999990004': 'delivered' } });
    await r.provider.submit(message('+5511999990004'));
    await r.provider.submit(message('+5511999990004'));
    await r.provider.submit(message('+5511999990004', ['Bruno', 'R$ 5,00']));
    const counters = r.simulator.counters();
    expect(counters.destinations['+5511999990004']).toEqual({ received: 3, accepted: 3, duplicates: 1 });
    expect(counters.duplicates).toBe(1);
  });

  // Each code the Cloud API answers, as the adapter reports it (reason, retry, sent-unknown).
  const table: [code: number, retryable: boolean][] = [
    [130429, true],
    [131056, true],
    [80007, true],
    [4, true],
    [131000, true],
    [131016, true],
    [131026, false],
    [131047, false],
    [131048, false],
    [132000, false],
    [132001, false],
    [132015, false],
    [100, false],
    [190, false],
    [368, false],
    [987654, false],
  ];
  it.each(table)('a synchronous error %i is WHATSAPP_<code>, retryable: %s', async (code, retryable) => {
    const r = await rig({ numberOutcomes: { '+5511999990010': { apiError: code } } });
    const error = await rejection(r.provider.submit(message('+5511999990010')));
    expect(error.reason).toBe(`WHATSAPP_${code}`);
    expect(error.options.retryable ?? false).toBe(retryable);
    expect(error.options.sentUnknown ?? false).toBe(false);
  });

  it('an invalid access token is WHATSAPP_190, not retried, and reported in health', async () => {
    const r = await rig({}, { config: { accessToken: 'revoked-token' } });
    const error = await rejection(r.provider.submit(message('+5511999990011')));
    expect(error.reason).toBe('WHATSAPP_190');
    expect(error.options.retryable).toBe(false);
    expect(r.provider.health().lastError?.message).toContain('WHATSAPP_190');
    expect(r.simulator.counters().rejected).toEqual({ 190: 1 });
  });

  it('a per-message refusal does not touch health; template problems come from the simulator too', async () => {
    const r = await rig({ knownTemplates: { cobranca_aviso: 2 } });
    const unknown = message('+5511999990012');
    if (unknown.content.kind === 'whatsapp') unknown.content.template.name = 'nao_aprovado';
    expect((await rejection(r.provider.submit(unknown))).reason).toBe('WHATSAPP_132001');
    expect((await rejection(r.provider.submit(message('+5511999990012', ['só um'])))).reason).toBe('WHATSAPP_132000');
    expect((await r.provider.submit(message('+5511999990012'))).providerMessageIds).toHaveLength(1);
    expect(r.provider.health().lastError).toBeNull();
  });

  it('refuses content that is not a template, and numbers that are not E.164, without calling the API', async () => {
    const r = await rig();
    const sms: OutboundMessage = { ...message('+5511999990013'), content: { kind: 'sms', text: 'oi', flash: false } };
    expect((await rejection(r.provider.submit(sms))).reason).toBe('WHATSAPP_CONTENT_UNSUPPORTED');
    expect((await rejection(r.provider.submit(message('11999990013')))).reason).toBe('WHATSAPP_NUMBER_INVALID');
    expect(r.simulator.counters().requests).toBe(0);
  });

  it('paces sends to the number throughput: the simulator never answers 130429', async () => {
    const r = await rig(
      { throughputPerSecond: 10, outcomeMix: { delivered: 1, read: 0, notOnWhatsApp: 0, reengagement: 0 } },
      { messagesPerSecond: 10 },
    );
    const sends = Array.from({ length: 25 }, (_, i) =>
      r.provider.submit(message(`+55119888800${String(i).padStart(2, '0')}`)),
    );
    const results = await Promise.allSettled(sends);
    expect(results.filter((s) => s.status === 'rejected')).toEqual([]);
    const counters = r.simulator.counters();
    expect(counters.accepted).toBe(25);
    expect(counters.rejected).toEqual({});
    expect(r.provider.health().tpsLimit).toBe(10);
  });

  it('without pacing the same burst is throttled by the simulator, as a retryable WHATSAPP_130429', async () => {
    // One per second at the simulator: the 25 requests would have to take 24 s to pass unthrottled,
    // which no loaded machine stretches a burst to (at 10/s, 1.9 s in CI let every one through).
    const r = await rig({ throughputPerSecond: 1 }, { messagesPerSecond: 100_000 });
    const sends = Array.from({ length: 25 }, (_, i) =>
      r.provider.submit(message(`+55119777700${String(i).padStart(2, '0')}`)),
    );
    const failures = (await Promise.allSettled(sends)).flatMap((s) => (s.status === 'rejected' ? [s.reason] : []));
    expect(failures.length).toBeGreaterThan(0);
    for (const failure of failures)
      expect(failure).toMatchObject({ reason: 'WHATSAPP_130429', options: { retryable: true } });
    expect(r.simulator.counters().rejected['130429']).toBe(failures.length);
  });

  it('defaults to the Cloud API throughput of 80 messages per second', async () => {
    const r = await rig();
    expect(r.provider.health()).toMatchObject({ provider: 'whatsapp', mode: 'simulator', tpsLimit: 80, inFlight: 0 });
  });
});

describe('WhatsApp adapter when the Cloud API misbehaves', () => {
  const config = (apiUrl: string) => ({
    apiUrl,
    apiVersion: 'v21.0',
    phoneNumberId: '123',
    accessToken: 't',
    appSecret: 's',
    verifyToken: 'v',
    messagesPerSecond: 80,
  });

  it('a refused connection sent nothing: retryable WHATSAPP_UNREACHABLE, health disconnected', async () => {
    const server = await listen(async () => ({ status: 200 }), { host: '127.0.0.1', port: 0 });
    await server.close();
    const provider = createWhatsAppProvider({ config: config(server.url), mode: 'real' });
    const error = await rejection(provider.submit(message('+5511999990020')));
    expect(error).toMatchObject({ reason: 'WHATSAPP_UNREACHABLE', options: { retryable: true } });
    expect(provider.health()).toMatchObject({
      connected: false,
      lastError: { message: expect.stringContaining('ECONNREFUSED') },
    });
  });

  it('no answer in time may have sent it: WHATSAPP_NO_ANSWER is sentUnknown, never retryable', async () => {
    const server = await listen(() => new Promise(() => {}), { host: '127.0.0.1', port: 0 });
    try {
      const provider = createWhatsAppProvider({ config: config(server.url), mode: 'real', timeoutMs: 200 });
      const error = await rejection(provider.submit(message('+5511999990021')));
      expect(error).toMatchObject({ reason: 'WHATSAPP_NO_ANSWER', options: { sentUnknown: true } });
      expect(error.options.retryable).toBeUndefined();
    } finally {
      await server.close();
    }
  });

  it.each([
    [502, 'text/html', '<html>Bad Gateway</html>', 'WHATSAPP_HTTP_502', { sentUnknown: true }],
    [500, 'text/plain', '', 'WHATSAPP_HTTP_500', { sentUnknown: true }],
    [503, 'text/plain', 'overloaded', 'WHATSAPP_HTTP_503', { retryable: true }],
    [200, 'application/json', '{"messages":[]}', 'WHATSAPP_ANSWER_INVALID', { sentUnknown: true }],
    [200, 'text/html', '<html>ok</html>', 'WHATSAPP_ANSWER_INVALID', { sentUnknown: true }],
    [404, 'text/html', 'not found', 'WHATSAPP_HTTP_404', {}],
  ])('an answer %i %s without a Graph error: %s', async (status, contentType, body, reason, options) => {
    const server = await listen(async () => ({ status, contentType, body }), { host: '127.0.0.1', port: 0 });
    try {
      const provider = createWhatsAppProvider({ config: config(server.url), mode: 'real' });
      const error = await rejection(provider.submit(message('+5511999990022')));
      expect(error.reason).toBe(reason);
      expect(error.options).toEqual(options);
    } finally {
      await server.close();
    }
  });
});
