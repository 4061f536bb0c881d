import { describe, expect, it } from 'vitest';
import type { InboundEvent, StatusEvent } from '../../provider.ts';
import { phone, sms, startPair, waitFor } from './smpp.test-support.ts';

const inbound = (events: unknown[]) => events.filter((e): e is InboundEvent => (e as InboundEvent).type === 'inbound');

describe('SMPP adapter ⇄ simulated SMSC: messages from phones (MO)', () => {
  it('reports a GSM-7 reply with the sender in E.164', async () => {
    const { sim, provider, events } = await startPair();
    const sent = await sim.sendMo({ from: '5511987654321', to: '28888', text: 'SIM, quero! @ 10€ [ok]' });
    expect(sent).toEqual({ parts: 1, statuses: [0] });
    expect(inbound(events)).toEqual([
      {
        type: 'inbound',
        provider: 'smpp',
        from: '+5511987654321',
        text: 'SIM, quero! @ 10€ [ok]',
        at: expect.any(Date),
      },
    ]);
    expect(provider.health().connected).toBe(true);
  });

  it('reports a UCS-2 reply', async () => {
    const { sim, events } = await startPair();
    await sim.sendMo({ from: '+5521912345678', to: '28888', text: 'Não, obrigado 🙏' });
    expect(inbound(events)[0]).toMatchObject({ from: '+5521912345678', text: 'Não, obrigado 🙏' });
  });

  it.each(['udh', 'sar'] as const)('puts a multipart reply back together (%s)', async (concatenation) => {
    const { sim, events } = await startPair();
    const text = `Olá! ${'Gostaria de saber mais sobre a promoção de eletrônicos. '.repeat(3)}Obrigada, Ana 😀`;
    const sent = await sim.sendMo({ from: '5511987654321', to: '28888', text, concatenation });
    expect(sent.parts).toBe(3);
    expect(inbound(events)).toHaveLength(1);
    expect(inbound(events)[0]!.text).toBe(text);
  });

  it('asks the SMSC to send again (temporary error) when the listener fails, and takes it then', async () => {
    const { sim, provider, events } = await startPair({
      outcomes: { delivered: 1, undelivered: 0, expired: 0, rejected: 0 },
    });
    let failures = 1;
    provider.onEvent(async (event) => {
      if (failures-- > 0) throw new Error('database unavailable');
      events.push(event);
    });
    const sent = await sim.sendMo({ from: '5511987654321', to: '28888', text: 'primeira tentativa' });
    expect(sent.statuses).toEqual([0x64]);
    expect(provider.health().lastError?.message).toContain('database unavailable');

    failures = 1;
    const { providerMessageIds } = await provider.submit(sms(phone(), 'recibo reenviado'));
    await waitFor('the receipt, sent again', () => events.length === 1);
    expect(events[0]).toMatchObject({
      type: 'status',
      providerMessageId: providerMessageIds[0],
    } satisfies Partial<StatusEvent>);
    // The simulator counts a receipt once our answer to it arrived: after the event was emitted.
    await waitFor('the second answer counted', () => sim.counters().receiptsSent === 1);
    expect(sim.counters()).toMatchObject({ receiptsRefused: 1, receiptsSent: 1 });
  });
});
