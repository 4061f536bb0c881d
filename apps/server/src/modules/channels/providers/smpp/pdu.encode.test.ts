import fc from 'fast-check';
import smpp from 'smpp';
import { describe, expect, it } from 'vitest';
import { decodePdu, encodeFieldless, encodePdu, encodeSubmitSm, type PlainSubmit } from './pdu.ts';
import { outboundParts, submitSmFields } from './short-message.ts';

/** The `smpp` package's own encoding of a PDU: the reference Ecoa's submit_sm writer must match byte for byte. */
const packageBytes = (command: string, sequence: number, fields: Record<string, unknown>, status = 0) =>
  new smpp.PDU(command, { ...fields, sequence_number: sequence, command_status: status }).toBuffer();

const octet = fc.integer({ min: 0, max: 255 });
/** Any characters, also beyond Latin-1 and lone surrogates: the package writes each UTF-16 unit as one byte. */
const anyString = fc.string({ unit: 'binary', maxLength: 21 });
const plainSubmit: fc.Arbitrary<PlainSubmit> = fc.record({
  service_type: anyString,
  source_addr_ton: octet,
  source_addr_npi: octet,
  source_addr: anyString,
  dest_addr_ton: octet,
  dest_addr_npi: octet,
  destination_addr: anyString,
  esm_class: octet,
  registered_delivery: octet,
  data_coding: octet,
  short_message: fc.uint8Array({ maxLength: 255 }).map((bytes) => Buffer.from(bytes)),
});
const sequence = fc.integer({ min: 1, max: 0x7fffffff });

describe('submit_sm encoding', () => {
  it('writes the same bytes as the smpp package for any fields Ecoa sends', () => {
    fc.assert(
      fc.property(plainSubmit, sequence, (fields, seq) => {
        expect(encodeSubmitSm(seq, fields).equals(packageBytes('submit_sm', seq, fields))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('writes the same bytes for the parts of real texts (GSM-7, UCS-2, long, flash) and every kind of sender', () => {
    const texts = [
      'Olá! Sua fatura vence amanhã.',
      'Promoção 🎉 só hoje',
      'x'.repeat(400),
      '中文短信测试'.repeat(20),
      '',
    ];
    for (const text of texts)
      for (const flash of [false, true])
        for (const sender of [undefined, '5511999990000', 'Ecoa Loja']) {
          for (const part of outboundParts(text, flash, 7)) {
            const fields = submitSmFields(part, '5511987654321', sender);
            const bytes = encodePdu('submit_sm', 42, fields);
            expect(bytes.equals(packageBytes('submit_sm', 42, fields))).toBe(true);
            // And the package reads back what was written.
            const read = decodePdu(bytes);
            expect(read).toMatchObject({
              command: 'submit_sm',
              sequence_number: 42,
              destination_addr: '5511987654321',
            });
            expect(Buffer.from(read.short_message as Buffer).equals(part.shortMessage)).toBe(true);
          }
        }
  });

  it('refuses what the package refuses: an octet or a short_message past 255', () => {
    const fields = submitSmFields(outboundParts('Oi', false, 1)[0]!, '5511987654321', undefined);
    expect(() => encodeSubmitSm(1, { ...fields, esm_class: 256 })).toThrow(RangeError);
    expect(() => packageBytes('submit_sm', 1, { ...fields, esm_class: 256 })).toThrow(RangeError);
    expect(() => encodeSubmitSm(1, { ...fields, short_message: Buffer.alloc(256) })).toThrow(RangeError);
    expect(() => packageBytes('submit_sm', 1, { ...fields, short_message: Buffer.alloc(256) })).toThrow(RangeError);
  });

  it('leaves any other submit_sm (TLVs, a schedule) to the package', () => {
    const fields = {
      ...submitSmFields(outboundParts('Oi', false, 1)[0]!, '5511987654321', undefined),
      user_message_reference: 9,
    };
    const bytes = encodePdu('submit_sm', 3, fields);
    expect(bytes.equals(packageBytes('submit_sm', 3, fields))).toBe(true);
    expect(decodePdu(bytes)).toMatchObject({ user_message_reference: 9 });
  });
});

describe('PDUs without fields (the answers to receipts, enquire_link, unbind)', () => {
  const commands = Object.keys(smpp.commands);
  const status = fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 0xffffffff }));

  it('are written as the smpp package writes them, for any command, status and sequence', () => {
    fc.assert(
      fc.property(fc.constantFrom(...commands), sequence, status, (command, seq, st) => {
        const direct = encodeFieldless(command, seq, st);
        const reference = packageBytes(command, seq, {}, st);
        // Null: left to the package (a command with a body of its own), which encodePdu then uses.
        if (direct) expect(direct.equals(reference)).toBe(true);
        expect(encodePdu(command, seq, {}, st).equals(reference)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('take the direct path for every answer Ecoa sends without fields, and read back as sent', () => {
    for (const command of ['deliver_sm_resp', 'data_sm_resp', 'enquire_link_resp', 'unbind_resp', 'generic_nack'])
      for (const st of [0, 0x58]) {
        const bytes = encodeFieldless(command, 77, st);
        expect(bytes, `${command} ${st}`).not.toBeNull();
        expect(decodePdu(bytes!)).toMatchObject({ command, command_status: st, sequence_number: 77 });
      }
    expect(encodeFieldless('deliver_sm_resp', 1, 0)).toHaveLength(17);
    expect(encodeFieldless('submit_sm', 1, 0)).toBeNull();
    expect(encodeFieldless('no_such_command', 1, 8)).toBeNull();
  });
});
