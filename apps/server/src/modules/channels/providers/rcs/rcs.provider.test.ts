import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import type { OutboundMessage, StatusEvent } from '../../provider.ts';
import { closedAfterEach, rejection } from '../http-kit/carrier-rig.test-support.ts';
import { type RcsRig, startRcsRig } from './rcs.test-support.ts';

const rig = closedAfterEach(startRcsRig);

function text(to: string, body = 'Sua fatura vence amanhã'): OutboundMessage {
  return {
    id: randomUUID(),
    channel: 'rcs',
    to,
    content: {
      kind: 'rcs',
      text: body,
      suggestions: [
        { kind: 'reply', text: 'Já paguei' },
        { kind: 'url', text: 'Ver fatura', url: 'https://ecoa.example/fatura' },
      ],
    },
  };
}

const statusesOf = (r: RcsRig, id: string) =>
  r.events.filter((e): e is StatusEvent => e.type === 'status' && e.providerMessageId === id).map((e) => e.status);

describe('RCS adapter against its simulator (RBM over HTTP)', () => {
  it('sends a text with suggestions and follows it to read; the provider id is Ecoa’s messageId', async () => {
    const r = await rig({ numberOutcomes: { '+5511999991001': 'read' } });
    const message = text('+5511999991001');
    expect(await r.provider.submit(message)).toEqual({ providerMessageIds: [message.id] });
    await r.simulator.idle();
    expect(statusesOf(r, message.id)).toEqual(['delivered', 'read']);
    expect(r.simulator.counters().destinations['+5511999991001']).toEqual({ received: 1, accepted: 1, duplicates: 0 });
  });

  it('sends a standalone rich card with an image and card suggestions', async () => {
    const r = await rig({ numberOutcomes: { '+5511999991002': 'delivered' } });
    const message: OutboundMessage = {
      id: randomUUID(),
      channel: 'rcs',
      to: '+5511999991002',
      content: {
        kind: 'rcs',
        card: {
          title: 'Black Friday',
          description: 'Até 50% de desconto',
          imageUrl: 'https://ecoa.example/banner.png',
          suggestions: [{ kind: 'url', text: 'Comprar', url: 'https://ecoa.example/loja' }],
        },
        suggestions: [{ kind: 'reply', text: 'Não quero' }],
      },
    };
    await r.provider.submit(message);
    await r.simulator.idle();
    expect(statusesOf(r, message.id)).toEqual(['delivered']);
  });

  it('a retry of the same messageId never sends twice: 409 ALREADY_EXISTS is the first send’s success', async () => {
    const r = await rig({ numberOutcomes: { '+5511999991003': 'delivered' } });
    const message = text('+5511999991003');
    const first = await r.provider.submit(message);
    const retry = await r.provider.submit(message);
    expect(retry).toEqual(first);
    await r.simulator.idle();
    const counters = r.simulator.counters();
    expect(counters.destinations['+5511999991003']).toEqual({ received: 2, accepted: 1, duplicates: 1 });
    expect(counters.rejected).toEqual({ 409: 1 });
    expect(statusesOf(r, message.id)).toEqual(['delivered']);
  });

  it('a send whose answer was lost is retryable, and the retry does not send again', async () => {
    // The answer comes 2.5 s after the request, the client gives up at 1 s: long enough for the request
    // to reach the simulator on a loaded machine (at 100 ms it sometimes had not, and nothing was accepted).
    const r = await rig({ latencyMs: 2_500, numberOutcomes: { '+5511999991004': 'delivered' } }, { timeoutMs: 1_000 });
    const message = text('+5511999991004');
    expect(await rejection(r.provider.submit(message))).toMatchObject({
      reason: 'RCS_NO_ANSWER',
      options: { retryable: true },
    });
    await vi.waitFor(() => expect(r.simulator.counters().accepted).toBe(1), { timeout: 10_000 });
    r.simulator.setOptions({ latencyMs: 0 });
    expect(await r.provider.submit(message)).toEqual({ providerMessageIds: [message.id] });
    expect(r.simulator.counters().destinations['+5511999991004']).toEqual({ received: 2, accepted: 1, duplicates: 1 });
  });

  it('a phone without RCS is RCS_NOT_CAPABLE, not retried, and not an account problem', async () => {
    const r = await rig({ numberOutcomes: { '+5511999991005': 'not_capable' } });
    const error = await rejection(r.provider.submit(text('+5511999991005')));
    expect(error.reason).toBe('RCS_NOT_CAPABLE');
    expect(error.options).toEqual({});
    expect(r.provider.health().lastError).toBeNull();
  });

  const table: [status: number, name: string, reason: string, retryable: boolean, account: boolean][] = [
    [400, 'INVALID_ARGUMENT', 'RCS_INVALID_ARGUMENT', false, false],
    [403, 'PERMISSION_DENIED', 'RCS_PERMISSION_DENIED', false, true],
    [429, 'RESOURCE_EXHAUSTED', 'RCS_RESOURCE_EXHAUSTED', true, false],
    [500, 'INTERNAL', 'RCS_INTERNAL', true, true],
    [503, 'UNAVAILABLE', 'RCS_UNAVAILABLE', true, true],
  ];
  it.each(table)(
    'an answer %i %s is %s (retryable: %s, health: %s)',
    async (status, name, reason, retryable, account) => {
      const r = await rig({ numberOutcomes: { '+5511999991006': { httpError: status, status: name } } });
      const error = await rejection(r.provider.submit(text('+5511999991006')));
      expect(error.reason).toBe(reason);
      expect(error.options.retryable ?? false).toBe(retryable);
      expect(error.options.sentUnknown).toBeUndefined();
      expect(r.provider.health().lastError !== null).toBe(account);
    },
  );

  it('a payload RBM refuses (a suggestion over 25 characters, a messageId that is not a UUID) is not retried', async () => {
    const r = await rig();
    const long = text('+5511999991007');
    if (long.content.kind === 'rcs') long.content.suggestions = [{ kind: 'reply', text: 'x'.repeat(26) }];
    expect(await rejection(r.provider.submit(long))).toMatchObject({ reason: 'RCS_INVALID_ARGUMENT', options: {} });
    const notUuid = { ...text('+5511999991007'), id: 'msg-42' };
    expect(await rejection(r.provider.submit(notUuid))).toMatchObject({ reason: 'RCS_INVALID_ARGUMENT', options: {} });
  });

  it('refuses a text and a card together, other channels and bad numbers, without calling RBM', async () => {
    const r = await rig();
    const both = text('+5511999991008');
    if (both.content.kind === 'rcs') both.content.card = { title: 'Oferta' };
    expect((await rejection(r.provider.submit(both))).reason).toBe('RCS_CONTENT_INVALID');
    const sms: OutboundMessage = { ...text('+5511999991008'), content: { kind: 'sms', text: 'oi', flash: false } };
    expect((await rejection(r.provider.submit(sms))).reason).toBe('RCS_CONTENT_UNSUPPORTED');
    expect((await rejection(r.provider.submit(text('5511999991008')))).reason).toBe('RCS_NUMBER_INVALID');
    expect(r.simulator.counters()).toMatchObject({ requests: 0, tokenRequests: 0 });
  });

  /** 25 sends at once to an agent allowed 10 a second, by a provider pacing itself at `messagesPerSecond`. */
  async function burstAtQuota(messagesPerSecond: number, numbers: string) {
    const r = await rig(
      { throughputPerSecond: 10, outcomeMix: { delivered: 1, read: 0, notCapable: 0 } },
      { messagesPerSecond },
    );
    const results = await Promise.allSettled(
      Array.from({ length: 25 }, (_, i) => r.provider.submit(text(`${numbers}${String(i).padStart(2, '0')}`))),
    );
    return { r, results };
  }

  it('paces sends to the agent quota: the simulator never answers 429', async () => {
    const { r, results } = await burstAtQuota(10, '+55119666600');
    expect(results.filter((s) => s.status === 'rejected')).toEqual([]);
    expect(r.simulator.counters()).toMatchObject({ accepted: 25, rejected: {} });
  });

  it('without pacing the burst meets the quota: retryable RCS_RESOURCE_EXHAUSTED', async () => {
    const { results } = await burstAtQuota(100_000, '+55119555500');
    const failures = results.flatMap((s) => (s.status === 'rejected' ? [s.reason] : []));
    expect(failures.length).toBeGreaterThan(0);
    for (const f of failures)
      expect(f).toMatchObject({ reason: 'RCS_RESOURCE_EXHAUSTED', options: { retryable: true } });
  });
});
