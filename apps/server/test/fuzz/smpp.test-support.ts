/**
 * Hostile SMSC input for the SMPP adapter: a raw TCP peer that plays the SMSC (it answers the
 * bind, then writes whatever bytes it is given), and generators of valid PDUs an SMSC sends
 * (receipts in TLV and text style, MO messages with UDH/SAR, enquire_link, unbind, stray
 * responses, unknown commands) to mutate.
 */
import net from 'node:net';
import fc from 'fast-check';
import {
  encodePdu,
  MAX_PDU_BYTES,
  PDU_HEADER_BYTES,
  PduFramer,
  readHeader,
} from '../../src/modules/channels/providers/smpp/pdu.ts';
import type { FuzzOutcome } from './harness.test-support.ts';

const PROBE_SEQUENCE_BASE = 0x7a000000;

const hexId = (maxLength: number) => fc.stringMatching(new RegExp(`^[0-9a-fA-F]{0,${maxLength}}$`));

/** Receipt-like texts: the real shape, reordered, repeated, and strange values. */
const receiptText = fc
  .tuple(
    fc.oneof(hexId(24), fc.string({ maxLength: 30 }), fc.constant('')),
    fc.constantFrom('DELIVRD', 'UNDELIV', 'EXPIRED', 'REJECTD', 'ENROUTE', 'ACCEPTD', 'UNKNOWN', 'DELETED', 'x', ''),
    fc.string({ maxLength: 6 }),
    fc.string({ maxLength: 40 }),
    fc.boolean(),
  )
  .map(([id, stat, err, tail, upper]) => {
    const text = `id:${id} sub:001 dlvrd:001 submit date:2611231200 done date:2611231201 stat:${stat} err:${err} text:${tail}`;
    return upper ? text.toUpperCase() : text;
  });

const address = fc.oneof(fc.stringMatching(/^55\d{10,11}$/), fc.string({ maxLength: 21 }));

const receiptPdu = fc
  .record({
    seq: fc.integer({ min: 1, max: 0x7fffffff }),
    text: receiptText,
    tlvId: fc.option(fc.oneof(hexId(20), fc.string({ maxLength: 64 }))),
    state: fc.option(fc.integer({ min: 0, max: 255 })),
    nec: fc.option(fc.uint8Array({ minLength: 0, maxLength: 5 })),
    esm: fc.constantFrom(0x04, 0x08, 0x10, 0x20, 0x44),
    from: address,
  })
  .map(({ seq, text, tlvId, state, nec, esm, from }) => {
    const fields: Record<string, unknown> = {
      source_addr: from,
      esm_class: esm,
      data_coding: 0,
      short_message: Buffer.from(text.slice(0, 254), 'latin1'),
    };
    if (tlvId !== null) fields.receipted_message_id = tlvId;
    if (state !== null) fields.message_state = state;
    if (nec !== null) fields.network_error_code = Buffer.from(nec);
    return encodePdu('deliver_sm', seq, fields);
  });

const moPdu = fc
  .record({
    seq: fc.integer({ min: 1, max: 0x7fffffff }),
    from: address,
    ton: fc.integer({ min: 0, max: 6 }),
    dataCoding: fc.constantFrom(0x00, 0x01, 0x03, 0x04, 0x08, 0x10, 0x18, 0xf0, 0xf4, 0xe0, 0x25),
    body: fc.uint8Array({ maxLength: 160 }),
    udh: fc.option(
      fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 5 })),
    ),
    sar: fc.option(
      fc.tuple(fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 5 })),
    ),
  })
  .map(({ seq, from, ton, dataCoding, body, udh, sar }) => {
    let short = Buffer.from(body);
    let esm = 0;
    if (udh) {
      short = Buffer.concat([Buffer.from([0x05, 0x00, 0x03, udh[0], udh[1], udh[2]]), short]);
      esm = 0x40;
    }
    const fields: Record<string, unknown> = {
      source_addr_ton: ton,
      source_addr: from,
      destination_addr: '28888',
      esm_class: esm,
      data_coding: dataCoding,
      short_message: short.subarray(0, 254),
    };
    if (sar) Object.assign(fields, { sar_msg_ref_num: sar[0], sar_total_segments: sar[1], sar_segment_seqnum: sar[2] });
    return encodePdu('deliver_sm', seq, fields);
  });

const otherPdu = fc
  .integer({ min: 1, max: 0x7fffffff })
  .chain((seq) =>
    fc.constantFrom(
      encodePdu('enquire_link', seq),
      encodePdu('unbind', seq),
      encodePdu('generic_nack', seq, {}, 0x03),
      encodePdu('submit_sm_resp', seq, { message_id: 'abc' }),
      encodePdu('alert_notification', seq, { source_addr: '1', esme_addr: '2' }),
      encodePdu('data_sm', seq, { source_addr: '1', destination_addr: '2' }),
      Buffer.from([0, 0, 0, 16, 0x00, 0x00, 0x01, 0x23, 0, 0, 0, 0, 0, 0, 0, 1]),
    ),
  );

/** One to three PDUs an SMSC could send, back to back. */
export const smscBytes: fc.Arbitrary<Buffer> = fc
  .array(
    fc.oneof({ weight: 4, arbitrary: receiptPdu }, { weight: 3, arbitrary: moPdu }, { weight: 1, arbitrary: otherPdu }),
    {
      minLength: 1,
      maxLength: 3,
    },
  )
  .map((pdus) => Buffer.concat(pdus));

/**
 * One PDU whose body is mutated and whose command_length is then made right again: the frame
 * reaches the decoders (truncated fields, TLVs past the end, odd UCS-2, broken UDH) instead of
 * ending the bind at the framing.
 */
export function bodyMutated(mutate: (body: fc.Arbitrary<Buffer>) => fc.Arbitrary<Buffer>): fc.Arbitrary<Buffer> {
  const single = fc.oneof(
    { weight: 4, arbitrary: receiptPdu },
    { weight: 3, arbitrary: moPdu },
    { weight: 1, arbitrary: otherPdu },
  );
  return single.chain((pdu) =>
    mutate(fc.constant(pdu.subarray(PDU_HEADER_BYTES))).map((body) => {
      const header = Buffer.from(pdu.subarray(0, PDU_HEADER_BYTES));
      const trimmed = body.subarray(0, MAX_PDU_BYTES - PDU_HEADER_BYTES);
      header.writeUInt32BE(PDU_HEADER_BYTES + trimmed.length, 0);
      return Buffer.concat([header, trimmed]);
    }),
  );
}

/** Where the adapter's framing will land: closes on a bad length, else the zero bytes that complete a frame. */
function framing(bytes: Buffer): { badLength: boolean; padding: number } {
  let offset = 0;
  while (offset + 4 <= bytes.length) {
    const length = bytes.readUInt32BE(offset);
    if (length < PDU_HEADER_BYTES || length > MAX_PDU_BYTES) return { badLength: true, padding: 0 };
    if (offset + length > bytes.length) return { badLength: false, padding: offset + length - bytes.length };
    offset += length;
  }
  // A tail shorter than a length field: complete it as a 16-byte frame of zeros past the length.
  const tail = bytes.length - offset;
  if (tail === 0) return { badLength: false, padding: 0 };
  const length = Buffer.concat([bytes.subarray(offset), Buffer.alloc(4 - tail)]).readUInt32BE(0);
  if (length < PDU_HEADER_BYTES || length > MAX_PDU_BYTES) return { badLength: true, padding: 4 - tail };
  return { badLength: false, padding: length - tail };
}

export const SMPP_REFUSAL_CODES = ['SMPP_BIND_CLOSED', 'SMPP_GENERIC_NACK', 'SMPP_RECEIPT_REFUSED'] as const;

/**
 * The SMSC side of the fuzzing: accepts the adapter's binds, and for each input writes it (its
 * last frame completed with zeros), then an enquire_link probe, and watches what the adapter does:
 * answers the probe (the input was handled or refused by a generic_nack / deliver_sm_resp error),
 * or closes the connection (a stream it cannot read, an unbind).
 */
export class HostileSmsc {
  private server: net.Server;
  private socket: net.Socket | null = null;
  private onBound: (() => void) | null = null;
  private listener: ((frame: Buffer | null) => void) | null = null;
  /** The connection the current input went to: its close is the answer even after a reconnect. */
  private fedSocket: net.Socket | null = null;
  private probes = 0;
  port = 0;

  constructor() {
    this.server = net.createServer((socket) => this.accept(socket));
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  async close(): Promise<void> {
    this.socket?.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  bound(): Promise<void> {
    if (this.socket && !this.socket.destroyed && this.isBound) return Promise.resolve();
    return new Promise((resolve) => {
      this.onBound = resolve;
    });
  }

  private isBound = false;

  private accept(socket: net.Socket): void {
    this.socket?.destroy();
    this.socket = socket;
    this.isBound = false;
    const framer = new PduFramer();
    socket.on('error', () => {});
    socket.on('data', (chunk: Buffer) => {
      for (const frame of framer.push(chunk)) {
        const header = readHeader(frame);
        if (header.commandId === 0x00000009) {
          socket.write(encodePdu('bind_transceiver_resp', header.sequence, { system_id: 'fuzz' }));
          this.isBound = true;
          this.onBound?.();
          this.onBound = null;
        } else if (header.commandId === 0x00000015) {
          socket.write(encodePdu('enquire_link_resp', header.sequence));
        } else {
          this.listener?.(frame);
        }
      }
    });
    socket.on('close', () => {
      if (this.fedSocket === socket) this.listener?.(null);
    });
  }

  async feed(input: Buffer): Promise<FuzzOutcome> {
    await this.bound();
    const socket = this.socket!;
    this.fedSocket = socket;
    const { padding } = framing(input);
    const probeSequence = PROBE_SEQUENCE_BASE + (this.probes++ % 0xffffff);
    let nack = false;
    let refusedReceipt = false;
    const outcome = await new Promise<FuzzOutcome | 'no answer'>((resolve) => {
      const timer = setTimeout(() => resolve('no answer'), 5000);
      this.listener = (frame) => {
        if (frame === null) {
          clearTimeout(timer);
          resolve({ refused: 'SMPP_BIND_CLOSED' });
          return;
        }
        const header = readHeader(frame);
        if (header.commandId === 0x80000000) nack = true;
        if (header.commandId === 0x80000005 && header.status === 0x65) refusedReceipt = true;
        if (header.commandId === 0x80000015 && header.sequence === probeSequence) {
          clearTimeout(timer);
          resolve(
            nack
              ? { refused: 'SMPP_GENERIC_NACK' }
              : refusedReceipt
                ? { refused: 'SMPP_RECEIPT_REFUSED' }
                : { accepted: true },
          );
        }
      };
      if (socket.destroyed) {
        clearTimeout(timer);
        resolve({ refused: 'SMPP_BIND_CLOSED' });
        return;
      }
      socket.write(Buffer.concat([input, Buffer.alloc(padding), encodePdu('enquire_link', probeSequence)]));
    });
    this.listener = null;
    this.fedSocket = null;
    if (outcome === 'no answer') {
      socket.destroy();
      return { refused: 'NO_ANSWER_WITHIN_5_S' };
    }
    return outcome;
  }
}
