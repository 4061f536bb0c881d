/**
 * SMPP 3.4 PDUs on the wire: framing (our own, so a hostile length never stalls or grows a
 * buffer) and encoding/decoding through the `smpp` package's codec. Text is never left to the
 * package: outbound `short_message` is always a Buffer we encoded with an explicit data_coding,
 * and inbound PDUs are decoded without its text filters (it turns unknown characters into
 * spaces and guesses encodings), so `short_message`/`message_payload` stay raw bytes.
 */
import smpp from 'smpp';
import { commandName, readMandatoryFields, readTlvs } from './tlvs.ts';

/** A decoded PDU: the header plus the command's fields and TLVs, by the package's names. */
export type Pdu = {
  command: string;
  command_id: number;
  command_status: number;
  sequence_number: number;
  [field: string]: unknown;
};

export const PDU_HEADER_BYTES = 16;
/** The largest PDU either side accepts (the package's own limit). */
export const MAX_PDU_BYTES: number = smpp.PDU.maxLength;

/** Command status codes Ecoa acts on (SMPP 3.4 section 5.1.3). */
export const STATUS = {
  OK: 0x00,
  INVALID_COMMAND_LENGTH: 0x02,
  INVALID_COMMAND_ID: 0x03,
  INVALID_BIND_STATUS: 0x04,
  SYSTEM_ERROR: 0x08,
  INVALID_DESTINATION: 0x0b,
  BIND_FAILED: 0x0d,
  INVALID_PASSWORD: 0x0e,
  INVALID_SYSTEM_ID: 0x0f,
  MESSAGE_QUEUE_FULL: 0x14,
  THROTTLED: 0x58,
  TEMPORARY_APP_ERROR: 0x64,
  PERMANENT_APP_ERROR: 0x65,
} as const;

const statusNames = new Map(Object.entries(smpp.errors).map(([name, code]) => [code, name]));

/** `ESME_RTHROTTLED (0x00000058)`: for messages and logs. */
export function describeStatus(status: number): string {
  return `${statusNames.get(status) ?? 'unknown status'} (${hex8(status)})`;
}

export function hex8(n: number): string {
  return `0x${(n >>> 0).toString(16).toUpperCase().padStart(8, '0')}`;
}

export function encodePdu(command: string, sequence: number, fields: Record<string, unknown> = {}, status = 0): Buffer {
  if (command === 'submit_sm' && status === 0 && isPlainSubmit(fields)) return encodeSubmitSm(sequence, fields);
  if (isEmpty(fields)) {
    const bytes = encodeFieldless(command, sequence, status);
    if (bytes) return bytes;
  }
  return new smpp.PDU(command, { ...fields, sequence_number: sequence, command_status: status }).toBuffer();
}

function isEmpty(fields: Record<string, unknown>): boolean {
  for (const _ in fields) return false;
  return true;
}

/** Commands whose only mandatory field is the `message_id` C string (empty when not given). */
const ID_ONLY = new Set(['submit_sm_resp', 'deliver_sm_resp', 'data_sm_resp']);
/** Commands with no body at all. */
const BODYLESS = new Set(['enquire_link', 'enquire_link_resp', 'unbind', 'unbind_resp', 'generic_nack']);

/**
 * A PDU given no fields, as the package writes it: a header alone when the status is not 0 or the
 * command has no body, the header and one NUL (an empty `message_id`) for an answer that has only
 * that. Every receipt Ecoa takes is answered this way (deliver_sm_resp), and the package's generic
 * encoder cost more than the rest of the answer. Null for any other command: the package encodes it.
 */
export function encodeFieldless(command: string, sequence: number, status: number): Buffer | null {
  const known = smpp.commands[command];
  const body = status !== 0 || BODYLESS.has(command) ? 0 : ID_ONLY.has(command) ? 1 : -1;
  if (!known || body < 0) return null;
  const buffer = Buffer.alloc(PDU_HEADER_BYTES + body);
  buffer.writeUInt32BE(buffer.length, 0);
  buffer.writeUInt32BE(known.id >>> 0, 4);
  buffer.writeUInt32BE(status >>> 0, 8);
  buffer.writeUInt32BE(sequence, 12);
  return buffer;
}

/** The submit_sm fields Ecoa sends (short-message.ts's `submitSmFields`): no TLVs, no schedule, no validity. */
export type PlainSubmit = {
  service_type: string;
  source_addr_ton: number;
  source_addr_npi: number;
  source_addr: string;
  dest_addr_ton: number;
  dest_addr_npi: number;
  destination_addr: string;
  esm_class: number;
  registered_delivery: number;
  data_coding: number;
  short_message: Buffer;
};

const PLAIN_SUBMIT_KEYS = new Set<string>([
  'service_type',
  'source_addr_ton',
  'source_addr_npi',
  'source_addr',
  'dest_addr_ton',
  'dest_addr_npi',
  'destination_addr',
  'esm_class',
  'registered_delivery',
  'data_coding',
  'short_message',
]);
const PLAIN_SUBMIT_STRINGS = ['service_type', 'source_addr', 'destination_addr'] as const;

function isPlainSubmit(fields: Record<string, unknown>): fields is PlainSubmit {
  const keys = Object.keys(fields);
  if (keys.length !== PLAIN_SUBMIT_KEYS.size || !keys.every((k) => PLAIN_SUBMIT_KEYS.has(k))) return false;
  return (
    PLAIN_SUBMIT_STRINGS.every((k) => typeof fields[k] === 'string') &&
    Buffer.isBuffer(fields.short_message) &&
    typeof fields.data_coding === 'number'
  );
}

/**
 * Every message part's submit_sm, written straight into one buffer: the same bytes as the `smpp`
 * package's encoder (a property test compares them), without its per-field filters and lookups,
 * which were a tenth of Ecoa's CPU per message. Strings go as the package writes them (one byte
 * per character, `Buffer.from(s, 'ascii')`); an octet field or a short_message past 255 throws as
 * it does.
 */
export function encodeSubmitSm(sequence: number, f: PlainSubmit): Buffer {
  const message = f.short_message;
  const length =
    PDU_HEADER_BYTES +
    f.service_type.length +
    1 +
    2 +
    f.source_addr.length +
    1 +
    2 +
    f.destination_addr.length +
    1 +
    3 + // esm_class, protocol_id, priority_flag
    2 + // schedule_delivery_time and validity_period, both empty C-strings
    4 + // registered_delivery, replace_if_present_flag, data_coding, sm_default_msg_id
    1 +
    message.length;
  const buffer = Buffer.allocUnsafe(length);
  buffer.writeUInt32BE(length, 0);
  buffer.writeUInt32BE(0x00000004, 4);
  buffer.writeUInt32BE(0, 8);
  buffer.writeUInt32BE(sequence, 12);
  let at = PDU_HEADER_BYTES;
  const cstring = (value: string) => {
    at += buffer.write(value, at, 'latin1');
    buffer[at++] = 0;
  };
  const octet = (value: number) => {
    at = buffer.writeUInt8(value, at);
  };
  cstring(f.service_type);
  octet(f.source_addr_ton);
  octet(f.source_addr_npi);
  cstring(f.source_addr);
  octet(f.dest_addr_ton);
  octet(f.dest_addr_npi);
  cstring(f.destination_addr);
  octet(f.esm_class);
  octet(0); // protocol_id
  octet(0); // priority_flag
  cstring(''); // schedule_delivery_time
  cstring(''); // validity_period
  octet(f.registered_delivery);
  octet(0); // replace_if_present_flag
  octet(f.data_coding);
  octet(0); // sm_default_msg_id
  octet(message.length); // sm_length
  message.copy(buffer, at);
  return buffer;
}

export function isResponseId(commandId: number): boolean {
  return (commandId & 0x80000000) !== 0;
}

/** The header of a frame, readable even when its body is not. */
export function readHeader(frame: Buffer): { commandId: number; status: number; sequence: number } {
  return { commandId: frame.readUInt32BE(4), status: frame.readUInt32BE(8), sequence: frame.readUInt32BE(12) };
}

/**
 * Decodes one whole frame (its length already checked by `PduFramer`). Throws on a body that
 * cannot be read (truncated fields, a TLV past the end). An unknown command id decodes to
 * `command: 'unknown'`. Text fields stay raw bytes (the package's text filters are never run).
 * The mandatory fields are read with the package's field types, the TLVs by their declared
 * length (tlvs.ts).
 */
export function decodePdu(frame: Buffer): Pdu {
  const command = commandName(frame.readUInt32BE(4));
  if (command === null) {
    const unknown = Object.create(smpp.PDU.prototype) as InstanceType<typeof smpp.PDU>;
    unknown.fromBuffer(frame);
    return unknown as unknown as Pdu;
  }
  const { fields, end } = readMandatoryFields(frame, command);
  const pdu = Object.create(smpp.PDU.prototype) as Pdu;
  return Object.assign(
    pdu,
    {
      command_length: frame.length,
      command_id: frame.readUInt32BE(4),
      command_status: frame.readUInt32BE(8),
      sequence_number: frame.readUInt32BE(12),
      command,
    },
    fields,
    readTlvs(frame, end, command),
  );
}

export class FrameError extends Error {
  constructor(readonly length: number) {
    super(`invalid PDU length ${length} (must be ${PDU_HEADER_BYTES}–${MAX_PDU_BYTES})`);
    this.name = 'FrameError';
  }
}

/**
 * Cuts a TCP byte stream into PDU frames. A length outside 16..MAX_PDU_BYTES leaves no way to
 * find the next PDU: `push` throws FrameError and the caller closes the connection. At most one
 * frame (≤ MAX_PDU_BYTES) is ever buffered beyond the chunk being read.
 */
export class PduFramer {
  private pending: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): Buffer[] {
    let data = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const frames: Buffer[] = [];
    while (data.length >= 4) {
      const length = data.readUInt32BE(0);
      if (length < PDU_HEADER_BYTES || length > MAX_PDU_BYTES) throw new FrameError(length);
      if (data.length < length) break;
      frames.push(data.subarray(0, length));
      data = data.subarray(length);
    }
    // Copy the remainder: a subarray would pin the whole (maybe large) chunk in memory.
    this.pending = Buffer.from(data);
    return frames;
  }
}
