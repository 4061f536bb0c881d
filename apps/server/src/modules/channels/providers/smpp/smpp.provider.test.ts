import { decodeUcs2, encodeUcs2 } from '@ecoa/shared';
import { describe, expect, it } from 'vitest';
import { parseSmppUrl } from '../../../../platform/config/config.ts';
import { ProviderError, type StatusEvent } from '../../provider.ts';
import { SmppProvider, smppProviderOptions } from './smpp.provider.ts';
import { phone, sms, startPair, waitFor } from './smpp.test-support.ts';

const statuses = (events: unknown[]) => events.filter((e): e is StatusEvent => (e as StatusEvent).type === 'status');

describe('SMPP adapter ⇄ simulated SMSC: submits and receipts', () => {
  it('submits an SMS and reports its receipt under the same id', async () => {
    const { sim, provider, events } = await startPair({
      outcomes: { delivered: 1, undelivered: 0, expired: 0, rejected: 0 },
    });
    const to = phone();
    const result = await provider.submit(sms(to, 'Ola Maria, sua fatura vence amanha.'));
    expect(result.providerMessageIds).toHaveLength(1);
    await waitFor('the receipt', () => statuses(events).length === 1);
    expect(statuses(events)[0]).toMatchObject({
      provider: 'smpp',
      providerMessageId: result.providerMessageIds[0],
      status: 'delivered',
    });
    const [record] = sim.records();
    expect(record).toMatchObject({
      destination: to.slice(1),
      dataCoding: 0,
      esmClass: 0,
      text: 'Ola Maria, sua fatura vence amanha.',
    });
    expect(provider.health()).toMatchObject({ provider: 'smpp', mode: 'simulator', connected: true, inFlight: 0 });
  });

  it('maps each outcome with the carrier code kept as the reason', async () => {
    for (const [outcome, status, reason] of [
      ['undelivered', 'failed', 'SMPP_UNDELIV_err_001'],
      ['rejected', 'failed', 'SMPP_REJECTD_err_002'],
      ['expired', 'expired', 'SMPP_EXPIRED_err_000'],
    ] as const) {
      const outcomes = { delivered: 0, undelivered: 0, expired: 0, rejected: 0, [outcome]: 1 };
      for (const receiptStyle of ['tlv', 'text'] as const) {
        const { provider, events } = await startPair({ outcomes, receiptStyle });
        const { providerMessageIds } = await provider.submit(sms(phone(), 'teste'));
        await waitFor(`a ${outcome} receipt`, () => statuses(events).length === 1);
        expect(statuses(events)[0], `${outcome} ${receiptStyle}`).toMatchObject({
          providerMessageId: providerMessageIds[0],
          status,
          reason,
        });
      }
    }
  });

  it('reports a receipt that arrives before the submit_sm_resp, under the id the submit then gets', async () => {
    const { provider, events } = await startPair({ receiptBeforeResponse: true, receiptStyle: 'text' });
    const order: string[] = [];
    provider.onEvent(async (event) => {
      events.push(event);
      order.push('receipt');
    });
    const result = await provider.submit(sms(phone(), 'corrida'));
    order.push('submit resolved');
    await waitFor('the receipt', () => statuses(events).length === 1);
    expect(order).toEqual(['receipt', 'submit resolved']);
    expect(statuses(events)[0]!.providerMessageId).toBe(result.providerMessageIds[0]);
  });

  it.each([
    ['hex lower, TLV and text', { messageIdStyle: 'hex-lower', receiptStyle: 'both' }],
    ['HEX UPPER, text only', { messageIdStyle: 'hex-upper', receiptStyle: 'text' }],
    ['decimal, TLV only', { messageIdStyle: 'decimal', receiptStyle: 'tlv' }],
    ['zero-padded receipt ids', { messageIdStyle: 'hex-upper', receiptIdPadding: 'zeros', receiptStyle: 'both' }],
    ['NUL-padded text ids', { messageIdStyle: 'decimal', receiptIdPadding: 'nul', receiptStyle: 'text' }],
    [
      'upper-case submit, lower-case text',
      { messageIdStyle: 'hex-upper', receiptIdStyle: 'hex-lower', receiptStyle: 'text' },
    ],
  ] as const)('matches receipt ids to submit ids: %s', async (_name, simOptions) => {
    const { provider, events } = await startPair(simOptions);
    const results = await Promise.all([1, 2, 3].map((i) => provider.submit(sms(phone(), `id ${i}`))));
    await waitFor('three receipts', () => statuses(events).length === 3);
    expect(new Set(statuses(events).map((e) => e.providerMessageId))).toEqual(
      new Set(results.map((r) => r.providerMessageIds[0])),
    );
  });

  it('converts text ids in another base: learned from a receipt with both, or configured', async () => {
    // Hex submit ids, decimal text ids: the TLV proves the pairing, text-only receipts follow.
    const learned = await startPair({ messageIdStyle: 'hex-upper', receiptIdStyle: 'decimal', receiptStyle: 'both' });
    const first = await learned.provider.submit(sms(phone(), 'primeira'));
    await waitFor('the first receipt', () => statuses(learned.events).length === 1);
    expect(learned.provider.stats().idBases).toEqual({ receipt: 'decimal', submit: 'hex' });
    learned.sim.setOptions({ receiptStyle: 'text' });
    const second = await learned.provider.submit(sms(phone(), 'segunda'));
    await waitFor('the second receipt', () => statuses(learned.events).length === 2);
    expect(statuses(learned.events).map((e) => e.providerMessageId)).toEqual([
      first.providerMessageIds[0],
      second.providerMessageIds[0],
    ]);

    const configured = await startPair(
      { messageIdStyle: 'decimal', receiptIdStyle: 'hex-upper', receiptStyle: 'text', receiptBeforeResponse: true },
      { idBases: { submit: 'decimal', receipt: 'hex' } },
    );
    const result = await configured.provider.submit(sms(phone(), 'configurado'));
    await waitFor('the receipt', () => statuses(configured.events).length === 1);
    expect(statuses(configured.events)[0]!.providerMessageId).toBe(result.providerMessageIds[0]);
  });

  it('sends a 3-part UCS-2 message: UDH, bytes, one id per part, the exact text reassembled', async () => {
    const text =
      'Atenção: sua promoção exclusiva está disponível! Aproveite descontos de até 50% em eletrônicos, ' +
      'calçados e acessórios até domingo. Não perca: condições válidas só para você 😀 SAIR p/ sair';
    const { sim, provider, events } = await startPair();
    const to = phone();
    const result = await provider.submit(sms(to, text));
    expect(result.providerMessageIds).toHaveLength(3);
    const records = sim.records();
    expect(records).toHaveLength(3);
    const reference = records[0]!.udh![3];
    records.forEach((r, i) => {
      expect(r.dataCoding).toBe(0x08);
      expect(r.esmClass & 0x40).toBe(0x40);
      expect([...r.udh!]).toEqual([0x05, 0x00, 0x03, reference, 3, i + 1]);
      expect(r.messageId.toLowerCase()).toBe(result.providerMessageIds[i]);
    });
    expect(records[0]!.shortMessage).toHaveLength(6 + 134);
    expect([...records[0]!.shortMessage.subarray(6)]).toEqual([...encodeUcs2(text.slice(0, 67))]);
    const reassembled = records.map((r) => decodeUcs2(r.shortMessage.subarray(6))).join('');
    expect(reassembled).toBe(text);
    // The package's own decoder (independent of ours) reads the same text.
    expect(records.map((r) => r.text).join('')).toBe(text);
    expect(sim.counters().perDestination[to.slice(1)]).toEqual({ parts: 3, messages: 1, duplicates: 0 });
    await waitFor('a receipt per part', () => statuses(events).length === 3);
  });

  it('never splits a GSM-7 extension character at a part boundary', async () => {
    const text = `${'x'.repeat(152)}€ e [colchetes] ${'y'.repeat(20)}`;
    const { sim, provider } = await startPair();
    await provider.submit(sms(phone(), text));
    const records = sim.records();
    expect(records).toHaveLength(2);
    expect(records.every((r) => r.dataCoding === 0)).toBe(true);
    expect(records[0]!.shortMessage.subarray(6)).toEqual(Buffer.alloc(152, 0x78));
    expect([...records[1]!.shortMessage.subarray(6, 8)]).toEqual([0x1b, 0x65]);
    expect(records.map((r) => r.text).join('')).toBe(text);
  });

  it('sends flash SMS with data_coding 0x10 (GSM-7) and 0x18 (UCS-2)', async () => {
    const { sim, provider } = await startPair();
    await provider.submit(sms(phone(), 'Alerta: acesse agora', true));
    await provider.submit(sms(phone(), 'Atenção: código 1234', true));
    expect(sim.records().map((r) => [r.dataCoding, r.text])).toEqual([
      [0x10, 'Alerta: acesse agora'],
      [0x18, 'Atenção: código 1234'],
    ]);
  });

  it('counts the same text to the same number twice as a duplicate', async () => {
    const { sim, provider } = await startPair();
    const to = phone();
    await provider.submit(sms(to, 'repetida'));
    await provider.submit(sms(to, 'repetida'));
    expect(sim.counters().perDestination[to.slice(1)]).toEqual({ parts: 2, messages: 2, duplicates: 1 });
  });

  it('refuses a wrong password with a clear error, and submits fail retryable without sending', async () => {
    const { sim, provider } = await startPair({}, { password: 'wrong' }, { bind: false });
    await waitFor('the bind refusal', () => sim.counters().bindsRefused > 0 && provider.health().lastError !== null);
    expect(provider.health()).toMatchObject({ connected: false });
    expect(provider.health().lastError!.message).toMatch(/refused the bind of "ecoa": ESME_RINVPASWD \(0x0000000E\)/);
    const error = await provider.submit(sms(phone(), 'nao vai')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ reason: 'SMPP_BIND_0x0000000E', options: { retryable: true } });
    expect(sim.counters().submits).toBe(0);
  });

  it('refuses what it cannot send: another channel, a bad number, an empty text', async () => {
    const { provider } = await startPair();
    const voice = {
      id: 'v',
      channel: 'voice_torpedo' as const,
      to: phone(),
      content: { kind: 'voice' as const, prompt: { tts: 'oi' } },
    };
    await expect(provider.submit(voice)).rejects.toMatchObject({ reason: 'SMPP_UNSUPPORTED_CONTENT' });
    await expect(provider.submit(sms('11912345678', 'oi'))).rejects.toMatchObject({
      reason: 'SMPP_INVALID_DESTINATION',
    });
    await expect(provider.submit(sms(phone(), ''))).rejects.toMatchObject({ reason: 'SMPP_EMPTY_MESSAGE' });
  });

  it('builds its options from the SMPP_URL config', () => {
    const options = smppProviderOptions(parseSmppUrl('smpp://user:p%40ss@smsc.example:2775?tps=50&window=20'), 'real');
    expect(options).toMatchObject({
      host: 'smsc.example',
      port: 2775,
      systemId: 'user',
      password: 'p@ss',
      tps: 50,
      window: 20,
      tls: false,
    });
    expect(typeof SmppProvider).toBe('function');
  });
});
