/**
 * Receipts as other SMSC implementations lay them out, from raw bytes: receipted_message_id with
 * and without its NUL and followed by other TLVs, the id only in the text, message_payload
 * receipts, ids in hex and decimal. First the decoding, then the adapter bound to a raw TCP SMSC.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { waitUntil } from '../../../../../test/processes.test-support.ts';
import { parseSmppUrl } from '../../../../platform/config/config.ts';
import type { StatusEvent } from '../../provider.ts';
import { receiptOf } from './inbound.ts';
import { ReceiptIdResolver } from './message-ids.ts';
import { decodePdu } from './pdu.ts';
import { RawSmsc, rawDeliverSm, receiptText, TLV, tlv } from './raw-smsc.test-support.ts';
import { SmppProvider, smppProviderOptions } from './smpp.provider.ts';

const STATE_DELIVERED = Buffer.from([2]);
const STATE_UNDELIVERABLE = Buffer.from([5]);

const read = (bytes: Buffer) => receiptOf(decodePdu(bytes));

describe('receipts read from raw bytes', () => {
  it('reads receipted_message_id with its NUL, followed by message_state and network_error_code', () => {
    const receipt = read(
      rawDeliverSm(1, {
        tlvs: [
          tlv(TLV.receiptedMessageId, '399005E1\u0000'),
          tlv(TLV.messageState, STATE_UNDELIVERABLE),
          tlv(TLV.networkErrorCode, Buffer.from([3, 0, 34])),
        ],
      }),
    );
    expect(receipt).toMatchObject({ tlvId: '399005e1', status: 'failed', reason: 'SMPP_UNDELIV_err_034' });
  });

  it('reads receipted_message_id without its NUL by its declared length, the next TLVs intact', () => {
    const bytes = rawDeliverSm(1, {
      tlvs: [
        tlv(TLV.receiptedMessageId, '399005E1'),
        tlv(TLV.messageState, STATE_DELIVERED),
        tlv(TLV.networkErrorCode, Buffer.from([3, 0, 0])),
      ],
    });
    const pdu = decodePdu(bytes);
    expect(pdu.receipted_message_id).toBe('399005E1');
    expect(pdu.message_state).toBe(2);
    expect(pdu.network_error_code).toEqual(Buffer.from([3, 0, 0]));
    expect(receiptOf(pdu)).toMatchObject({ tlvId: '399005e1', status: 'delivered' });
  });

  it('reads a NUL-less receipted_message_id that is the last TLV, and one padded with several NULs', () => {
    const last = read(
      rawDeliverSm(1, { tlvs: [tlv(TLV.messageState, STATE_DELIVERED), tlv(TLV.receiptedMessageId, 'ab12')] }),
    );
    expect(last).toMatchObject({ tlvId: 'ab12', status: 'delivered' });
    const padded = read(
      rawDeliverSm(1, {
        tlvs: [tlv(TLV.receiptedMessageId, 'AB12\u0000\u0000\u0000'), tlv(TLV.messageState, STATE_DELIVERED)],
      }),
    );
    expect(padded).toMatchObject({ tlvId: 'ab12', status: 'delivered' });
  });

  it('takes the id from the text when there is no TLV', () => {
    const receipt = read(rawDeliverSm(1, { shortMessage: receiptText('0399005E1', 'UNDELIV', '001') }));
    expect(receipt).toMatchObject({
      tlvId: null,
      textId: '399005e1',
      status: 'failed',
      reason: 'SMPP_UNDELIV_err_001',
    });
  });

  it('falls back to the text id when receipted_message_id is unusable (empty, control bytes, too long)', () => {
    for (const bad of ['\u0000', '\u0004\u0001', `${'9'.repeat(70)}`, 'ab\u00ffcd']) {
      const receipt = read(
        rawDeliverSm(1, {
          shortMessage: receiptText('1A2B'),
          tlvs: [tlv(TLV.receiptedMessageId, bad), tlv(TLV.messageState, STATE_DELIVERED)],
        }),
      );
      expect(receipt, JSON.stringify(bad)).toMatchObject({ tlvId: null, textId: '1a2b', status: 'delivered' });
      expect(receipt?.rawHex.tlvId).toBe(Buffer.from(bad.split('\u0000')[0]!, 'latin1').toString('hex'));
    }
  });

  it('reads a message_payload receipt (empty short_message), with or without the TLVs', () => {
    const textOnly = read(rawDeliverSm(1, { tlvs: [tlv(TLV.messagePayload, receiptText('77aa', 'EXPIRED'))] }));
    expect(textOnly).toMatchObject({ tlvId: null, textId: '77aa', status: 'expired' });
    const both = read(
      rawDeliverSm(1, {
        tlvs: [
          tlv(TLV.messagePayload, receiptText('77AA')),
          tlv(TLV.receiptedMessageId, '77AA'),
          tlv(TLV.messageState, STATE_DELIVERED),
        ],
      }),
    );
    expect(both).toMatchObject({ tlvId: '77aa', textId: '77aa', status: 'delivered' });
  });

  it('refuses a body whose TLV declares more bytes than the PDU has (answered generic_nack)', () => {
    const bytes = rawDeliverSm(1, { tlvs: [tlv(TLV.receiptedMessageId, 'abc', 9)] });
    expect(() => decodePdu(bytes)).toThrow(/declares 9 bytes, 3 left/);
  });
});

describe('receipt ids in hex and decimal', () => {
  it('matches a decimal text id to a hex submit id, and a hex one to a decimal submit id', () => {
    const hexSubmits = new ReceiptIdResolver(undefined);
    hexSubmits.noteSubmitted('399005e1');
    expect(hexSubmits.resolve(null, String(0x399005e1))).toBe('399005e1');
    expect(hexSubmits.differingBases).toEqual({ receipt: 'decimal', submit: 'hex' });
    // A submit this adapter no longer remembers: read in the base learned.
    expect(hexSubmits.resolve(null, String(0x1a2b))).toBe('1a2b');

    const decimalSubmits = new ReceiptIdResolver(undefined);
    decimalSubmits.noteSubmitted('6699');
    expect(decimalSubmits.resolve(null, '1a2b')).toBe('6699');
    expect(decimalSubmits.resolve('1a2b', null)).toBe('6699');
  });

  it('never converts an id that reads both ways among recent submits, nor one from a source that matched as written', () => {
    // Sequential hex ids: "16" is a submit as written (0x16) and, read as decimal, 0x10 too.
    const resolver = new ReceiptIdResolver(undefined);
    for (let id = 0x10; id <= 0x16; id++) resolver.noteSubmitted(id.toString(16));
    expect(resolver.resolve(null, '16')).toBe('16');
    // "15" only as written (0xf is no submit): the texts are in the submits' base.
    expect(resolver.resolve(null, '15')).toBe('15');
    // "11" read as decimal would be 0xb (no submit); as written it is one: as written.
    expect(resolver.resolve(null, '11')).toBe('11');
    // A text id that matches no submit as written but one in the other base: the source has
    // shown it writes the submits' base, so this is the receipt of a forgotten submit.
    resolver.noteSubmitted('ff');
    expect(resolver.resolve(null, '255')).toBe('255');
  });

  it('forgets the oldest submits past its memory', () => {
    const resolver = new ReceiptIdResolver(undefined, 2);
    resolver.noteSubmitted('a');
    resolver.noteSubmitted('b');
    resolver.noteSubmitted('c');
    expect(resolver.resolve(null, '10')).toBe('10');
    expect(resolver.resolve(null, '11')).toBe('b');
  });
});

const smscs: RawSmsc[] = [];
const providers: SmppProvider[] = [];
afterEach(async () => {
  for (const p of providers.splice(0)) await p.close();
  for (const s of smscs.splice(0)) await s.close();
});

/** The adapter bound to a raw SMSC; `outcome` is what the channels core says of each receipt. */
async function bindRaw(
  nextId: (n: number) => string,
  outcome: StatusEvent['status'] | 'early' = 'delivered',
  urlQuery = '',
  receiptWithAnswer?: (id: string, sequence: number) => Buffer,
) {
  const smsc = await new RawSmsc(nextId, receiptWithAnswer).start();
  smscs.push(smsc);
  const warnings: object[] = [];
  const logger = { warn: (data: object) => warnings.push(data), info: () => {} };
  const provider = new SmppProvider({
    ...smppProviderOptions({ ...parseSmppUrl(`${smsc.url}${urlQuery}`), tps: 100, window: 5 }, 'real'),
    reconnect: { initialMs: 20, maxMs: 200 },
    logger,
  });
  providers.push(provider);
  const events: StatusEvent[] = [];
  provider.onEvent(async (event) => {
    if (event.type === 'status') events.push(event);
    return outcome === 'early' ? 'early' : 'applied';
  });
  await provider.ready();
  return { smsc, provider, events, warnings };
}

const sms = (n: number) => ({
  id: `m${n}`,
  channel: 'sms_short' as const,
  to: `+5511990000${String(n).padStart(3, '0')}`,
  content: { kind: 'sms' as const, text: 'Oferta', flash: false },
});

describe('the adapter bound to a raw SMSC that writes receipts its own way', () => {
  it('reports each layout with the id its submit got', async () => {
    const ids = ['399005E1', '399005E2', '399005E3', '399005E4'];
    const { smsc, provider, events } = await bindRaw((n) => ids[n]!);
    for (let n = 0; n < ids.length; n++) {
      expect((await provider.submit(sms(n))).providerMessageIds).toEqual([ids[n]!.toLowerCase()]);
    }
    const layouts = [
      // No NUL, message_state after it.
      (seq: number) =>
        rawDeliverSm(seq, { tlvs: [tlv(TLV.receiptedMessageId, ids[0]!), tlv(TLV.messageState, STATE_DELIVERED)] }),
      // With its NUL, and the text too.
      (seq: number) =>
        rawDeliverSm(seq, {
          shortMessage: receiptText(ids[1]!),
          tlvs: [tlv(TLV.receiptedMessageId, `${ids[1]}\u0000`), tlv(TLV.messageState, STATE_DELIVERED)],
        }),
      // Only the text.
      (seq: number) => rawDeliverSm(seq, { shortMessage: receiptText(ids[2]!) }),
      // The text in message_payload, short_message empty.
      (seq: number) => rawDeliverSm(seq, { tlvs: [tlv(TLV.messagePayload, receiptText(ids[3]!))] }),
    ];
    for (const layout of layouts) expect(await smsc.deliver(layout)).toBe(0);
    expect(events.map((e) => [e.providerMessageId, e.status])).toEqual(
      ids.map((id) => [id.toLowerCase(), 'delivered']),
    );
  });

  it('matches the decimal text ids of an SMSC whose submit ids are hex, and the reverse', async () => {
    const hex = await bindRaw((n) => (0x399005e1 + n).toString(16).toUpperCase());
    const decimal = await bindRaw((n) => String(966_788_577 + n));
    for (let n = 0; n < 3; n++) {
      await hex.provider.submit(sms(n));
      await decimal.provider.submit(sms(n));
    }
    for (let n = 0; n < 3; n++) {
      const asDecimal = String(0x399005e1 + n);
      await hex.smsc.deliver((seq) => rawDeliverSm(seq, { shortMessage: receiptText(asDecimal) }));
      const asHex = (966_788_577 + n).toString(16).toUpperCase();
      await decimal.smsc.deliver((seq) => rawDeliverSm(seq, { tlvs: [tlv(TLV.messagePayload, receiptText(asHex))] }));
    }
    expect(hex.events.map((e) => e.providerMessageId)).toEqual(hex.smsc.submitted.map((id) => id.toLowerCase()));
    expect(decimal.events.map((e) => e.providerMessageId)).toEqual(decimal.smsc.submitted);
  });

  it('matches a decimal text id read in the same TCP chunk as its hex submit id, right after it', async () => {
    // The receipt follows the submit_sm_resp in one write: the adapter must have noted the submit's
    // id before it reads the receipt's, or the decimal id is never recognised as that submit.
    const { smsc, provider, events } = await bindRaw(
      (n) => (0x399005e1 + n).toString(16).toUpperCase(),
      'delivered',
      '',
      (id, seq) => rawDeliverSm(seq, { shortMessage: receiptText(String(Number.parseInt(id, 16))) }),
    );
    for (let n = 0; n < 3; n++) await provider.submit(sms(n));
    await waitUntil('three receipts', () => events.length === 3, 10_000);
    expect(events.map((e) => e.providerMessageId)).toEqual(smsc.submitted.map((id) => id.toLowerCase()));
  });

  it('SMPP_URL ?submit_ids=hex&receipt_ids=decimal converts text ids, also of submits made before a restart', async () => {
    const { smsc, events } = await bindRaw(() => 'unused', 'delivered', '?submit_ids=hex&receipt_ids=decimal');
    // Nothing submitted by this process: only the operator's word can say the base.
    await smsc.deliver((seq) => rawDeliverSm(seq, { shortMessage: receiptText(String(0x399005e1)) }));
    expect(events.map((e) => e.providerMessageId)).toEqual(['399005e1']);
  });

  it('counts a receipt that matches no message and logs its raw id in hex', async () => {
    const { smsc, provider, warnings } = await bindRaw(() => 'abc', 'early');
    const status = await smsc.deliver((seq) =>
      rawDeliverSm(seq, { tlvs: [tlv(TLV.receiptedMessageId, 'DEAD01'), tlv(TLV.messageState, STATE_DELIVERED)] }),
    );
    // Taken (it waits in case its submit is being stored), but not silently.
    expect(status).toBe(0);
    expect(provider.receiptCounters()).toEqual({ unmatchedReceipts: 1 });
    expect(warnings).toEqual([
      {
        providerMessageId: 'dead01',
        rawIdHex: { tlvId: Buffer.from('DEAD01').toString('hex'), textId: null },
        stat: 'DELIVRD',
      },
    ]);
  });
});
