/**
 * The simulator plays what outside SMSCs showed: receipts in other implementations' byte layouts,
 * a window in which it throttles everything, slow answers. Set through the control API, as the
 * e2e and chaos tests do, and checked against the real adapter.
 */
import { describe, expect, it } from 'vitest';
import type { StatusEvent } from '../../../provider.ts';
import { phone, sms, startPair, waitFor } from '../smpp.test-support.ts';
import { SMSC_SIMULATOR_DEFAULTS, type SmscSimulatorOptions } from './options.ts';
import { receiptDeliverSm } from './receipt-pdu.ts';

const statuses = (events: unknown[]) => events.filter((e): e is StatusEvent => (e as StatusEvent).type === 'status');

async function postOptions(httpPort: number | null, options: Partial<SmscSimulatorOptions>) {
  const res = await fetch(`http://127.0.0.1:${httpPort}/__simulator/options`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(options),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as SmscSimulatorOptions;
}

describe('the SMSC simulator writes receipts in other SMSCs’ byte layouts', () => {
  it('writes receipted_message_id without its NUL, message_state right after it', () => {
    const request = {
      messageId: '399005E1',
      value: 0x399005e1n,
      source: '28888',
      destination: '5511987654321',
      text: 'Oi',
      submittedAt: new Date(),
      outcome: 'undelivered' as const,
    };
    const options = { ...SMSC_SIMULATOR_DEFAULTS, receiptStyle: 'tlv' as const, receiptTlvNul: false };
    const bytes = receiptDeliverSm(request, options, new Date()).toBuffer();
    expect(bytes.readUInt32BE(0)).toBe(bytes.length);
    const at = bytes.indexOf(Buffer.from([0x00, 0x1e, 0x00, 0x08]));
    expect(at).toBeGreaterThan(0);
    expect(bytes.subarray(at + 4, at + 12).toString('latin1')).toBe('399005E1');
    // The next TLV starts right after the id: message_state 5 (UNDELIV), then network_error_code.
    expect([...bytes.subarray(at + 12, at + 17)]).toEqual([0x04, 0x27, 0x00, 0x01, 0x05]);
    expect([...bytes.subarray(at + 17)]).toEqual([0x04, 0x23, 0x00, 0x03, 0x03, 0x00, 0x01]);
  });

  const layouts: [string, Partial<SmscSimulatorOptions>][] = [
    ['TLVs only, receipted_message_id without NUL', { receiptStyle: 'tlv', receiptTlvNul: false }],
    ['TLVs without NUL and the text', { receiptStyle: 'both', receiptTlvNul: false, messageIdStyle: 'hex-upper' }],
    ['the id only in the text', { receiptStyle: 'text' }],
    ['the text in message_payload', { receiptStyle: 'text', receiptTextIn: 'message_payload' }],
    [
      'hex submit ids, decimal text ids',
      { receiptStyle: 'text', messageIdStyle: 'hex-upper', receiptIdStyle: 'decimal' },
    ],
    [
      'decimal submit ids, hex text ids in message_payload',
      {
        receiptStyle: 'text',
        receiptTextIn: 'message_payload',
        messageIdStyle: 'decimal',
        receiptIdStyle: 'hex-upper',
      },
    ],
  ];

  it.each(layouts)('%s: the adapter matches every receipt to its submit', async (_name, layout) => {
    const { sim, provider, events } = await startPair({ httpPort: 0 });
    const echoed = await postOptions(sim.httpPort, layout);
    expect(echoed).toMatchObject(layout);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push(...(await provider.submit(sms(phone(), `layout ${i}`))).providerMessageIds);
    await waitFor('four receipts', () => statuses(events).length === 4);
    expect(statuses(events).map((e) => e.providerMessageId)).toEqual(ids);
    await waitFor('the four deliver_sm_resp', () => sim.counters().receiptsSent === 4);
    expect(sim.counters().receiptsRefused).toBe(0);
  });
});

describe('the SMSC simulator throttles everything for a while and answers slowly', () => {
  it('throttleAllForMs answers every submit 0x58 for that long from now; responseLatencyMs delays each answer', async () => {
    const { sim, provider } = await startPair({ httpPort: 0 }, { throttleRetryMs: 50 });
    const set = await postOptions(sim.httpPort, { throttleAllForMs: 1000, responseLatencyMs: 400 });
    expect(set).toMatchObject({ throttleAllForMs: 1000, responseLatencyMs: 400 });
    const started = Date.now();
    const first = await provider.submit(sms(phone(), 'na janela'));
    // Taken only once the window was over, after being throttled at least once.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(first.providerMessageIds).toHaveLength(1);
    const throttled = sim.counters().throttled;
    expect(throttled).toBeGreaterThanOrEqual(1);
    expect(provider.stats().throttleAnswers).toBe(throttled);

    // After the window: taken at the first try, and still answered no sooner than the latency.
    const again = Date.now();
    await provider.submit(sms(phone(), 'depois'));
    expect(Date.now() - again).toBeGreaterThanOrEqual(400);
    expect(sim.counters().throttled).toBe(throttled);

    // Set again: a new window from now.
    await postOptions(sim.httpPort, { throttleAllForMs: 600, responseLatencyMs: 0 });
    const third = Date.now();
    await provider.submit(sms(phone(), 'nova janela'));
    expect(Date.now() - third).toBeGreaterThanOrEqual(600);
    expect(sim.counters().throttled).toBeGreaterThan(throttled);
  });
});

describe('the SMSC simulator holds receipts and sends them in a burst', () => {
  it('holdReceipts keeps every receipt that falls due; set back to false, sends them all at once', async () => {
    const { sim, provider, events } = await startPair({ httpPort: 0, receiptLatencyMs: 0 });
    expect(await postOptions(sim.httpPort, { holdReceipts: true })).toMatchObject({ holdReceipts: true });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(...(await provider.submit(sms(phone(), `retido ${i}`))).providerMessageIds);
    await waitFor('five receipts held', () => sim.counters().receiptsHeld === 5);
    // Held: none reached the adapter, none was answered.
    expect(statuses(events)).toEqual([]);
    expect(sim.counters().receiptsSent).toBe(0);
    const counters = (await (await fetch(`http://127.0.0.1:${sim.httpPort}/__simulator/counters?totals=1`)).json()) as {
      receiptsHeld: number;
    };
    expect(counters.receiptsHeld).toBe(5);

    await postOptions(sim.httpPort, { holdReceipts: false });
    expect(sim.counters().receiptsHeld).toBe(0);
    await waitFor('the five receipts, in a burst', () => statuses(events).length === 5);
    expect(statuses(events).map((e) => e.providerMessageId)).toEqual(ids);
    await waitFor('the five deliver_sm_resp', () => sim.counters().receiptsSent === 5);

    // Not holding any more: the next receipt goes out as it falls due.
    const next = await provider.submit(sms(phone(), 'depois'));
    await waitFor('the next receipt', () => statuses(events).length === 6);
    expect(statuses(events)[5]!.providerMessageId).toBe(next.providerMessageIds[0]);
    expect(sim.counters().receiptsHeld).toBe(0);
  });
});
