/**
 * For the receipt-layout tests: deliver_sm PDUs written byte by byte (not through any SMPP
 * library, so a TLV can lack its NUL or sit anywhere, as other SMSC implementations write them),
 * and a raw TCP "SMSC" that binds the adapter, answers its submits with ids of our choosing and
 * sends such bytes, reporting each deliver_sm_resp status.
 */
import net from 'node:net';
import { PduFramer, readHeader } from './pdu.ts';

export const TLV = {
  receiptedMessageId: 0x001e,
  networkErrorCode: 0x0423,
  messagePayload: 0x0424,
  messageState: 0x0427,
} as const;

const cstring = (s: string) => Buffer.concat([Buffer.from(s, 'latin1'), Buffer.from([0])]);

/** One TLV: tag, declared length (the value's unless given), value bytes. */
export function tlv(tag: number, value: Buffer | string, declaredLength?: number): Buffer {
  const bytes = typeof value === 'string' ? Buffer.from(value, 'latin1') : value;
  const head = Buffer.alloc(4);
  head.writeUInt16BE(tag, 0);
  head.writeUInt16BE(declaredLength ?? bytes.length, 2);
  return Buffer.concat([head, bytes]);
}

/** A deliver_sm receipt (esm_class 0x04) with `shortMessage` and the TLVs as given, byte by byte. */
export function rawDeliverSm(
  sequence: number,
  options: { shortMessage?: string; tlvs?: Buffer[]; esmClass?: number; from?: string },
): Buffer {
  const short = Buffer.from(options.shortMessage ?? '', 'latin1');
  const body = Buffer.concat([
    cstring(''), // service_type
    Buffer.from([1, 1]), // source_addr_ton, source_addr_npi
    cstring(options.from ?? '5511987654321'),
    Buffer.from([0, 0]), // dest_addr_ton, dest_addr_npi
    cstring('28888'),
    Buffer.from([options.esmClass ?? 0x04, 0, 0]), // esm_class, protocol_id, priority_flag
    cstring(''), // schedule_delivery_time
    cstring(''), // validity_period
    Buffer.from([0, 0, 0, 0, short.length]), // registered_delivery, replace_if_present, data_coding, sm_default_msg_id, sm_length
    short,
    ...(options.tlvs ?? []),
  ]);
  const header = Buffer.alloc(16);
  header.writeUInt32BE(16 + body.length, 0);
  header.writeUInt32BE(0x00000005, 4); // deliver_sm
  header.writeUInt32BE(0, 8);
  header.writeUInt32BE(sequence, 12);
  return Buffer.concat([header, body]);
}

/** A response PDU (header only, or with a C-string body such as submit_sm_resp's message_id). */
function response(commandId: number, sequence: number, body: Buffer = Buffer.alloc(0)): Buffer {
  const header = Buffer.alloc(16);
  header.writeUInt32BE(16 + body.length, 0);
  header.writeUInt32BE(commandId, 4);
  header.writeUInt32BE(0, 8);
  header.writeUInt32BE(sequence, 12);
  return Buffer.concat([header, body]);
}

export class RawSmsc {
  private readonly server = net.createServer((socket) => this.accept(socket));
  private socket: net.Socket | null = null;
  private bound: (() => void) | null = null;
  private readonly answers = new Map<number, (status: number) => void>();
  private sequence = 0x10000;
  /** submit_sm_resp message ids handed out, in order. */
  readonly submitted: string[] = [];
  port = 0;

  /**
   * `nextId` says the message_id each submit gets (as the SMSC writes it). With `receiptWithAnswer`,
   * each submit_sm_resp leaves in one TCP write with the deliver_sm it builds (a fast SMSC, or a
   * busy adapter that reads both at once).
   */
  constructor(
    private readonly nextId: (n: number) => string,
    private readonly receiptWithAnswer?: (id: string, sequence: number) => Buffer,
  ) {}

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.port = (this.server.address() as net.AddressInfo).port;
    return this;
  }

  get url(): string {
    return `smpp://raw:raw@127.0.0.1:${this.port}`;
  }

  whenBound(): Promise<void> {
    if (this.socket && !this.socket.destroyed) return Promise.resolve();
    return new Promise((resolve) => {
      this.bound = resolve;
    });
  }

  /** Writes a deliver_sm built by `build(sequence)`; resolves with the adapter's deliver_sm_resp status. */
  async deliver(build: (sequence: number) => Buffer): Promise<number> {
    await this.whenBound();
    const sequence = ++this.sequence;
    return new Promise<number>((resolve) => {
      this.answers.set(sequence, resolve);
      this.socket!.write(build(sequence));
    });
  }

  async close(): Promise<void> {
    this.socket?.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(socket: net.Socket): void {
    this.socket?.destroy();
    this.socket = socket;
    const framer = new PduFramer();
    socket.on('error', () => {});
    socket.on('data', (chunk: Buffer) => {
      for (const frame of framer.push(chunk)) {
        const { commandId, status, sequence } = readHeader(frame);
        if (commandId === 0x00000009) {
          socket.write(response(0x80000009, sequence, cstring('RawSMSC')));
          this.bound?.();
          this.bound = null;
        } else if (commandId === 0x00000015) {
          socket.write(response(0x80000015, sequence));
        } else if (commandId === 0x00000004) {
          const id = this.nextId(this.submitted.length);
          this.submitted.push(id);
          const answer = response(0x80000004, sequence, cstring(id));
          socket.write(
            this.receiptWithAnswer ? Buffer.concat([answer, this.receiptWithAnswer(id, ++this.sequence)]) : answer,
          );
        } else if (commandId === 0x80000005) {
          this.answers.get(sequence)?.(status);
          this.answers.delete(sequence);
        } else if (commandId === 0x00000006) {
          socket.write(response(0x80000006, sequence));
        }
      }
    });
  }
}

/** The Appendix B receipt text. */
export function receiptText(id: string, stat = 'DELIVRD', err = '000'): string {
  return `id:${id} sub:001 dlvrd:001 submit date:2611261200 done date:2611261201 stat:${stat} err:${err} text:Ola`;
}
