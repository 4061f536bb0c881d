/**
 * The mandatory fields and TLVs of an inbound PDU, each TLV read by its declared length.
 *
 * Why not the `smpp` package's own decoding: it reads a C-octet-string TLV up to the first NUL
 * whatever its declared length, so a `receipted_message_id` sent without the terminating NUL
 * (length 8, `399005E1`, then the `message_state` TLV; several SMSCs do this) comes out as
 * `399005E1\x04'…` with the next TLV's bytes glued on, and the receipt never matches its message.
 * Here a TLV is exactly its declared bytes: a C string is cut at its first NUL (so trailing NULs
 * go), an integer is read from its own bytes only, and a TLV whose length runs past the PDU makes
 * the body unreadable (answered generic_nack). The mandatory fields are read with the package's
 * own field types.
 */
import smpp from 'smpp';

type FieldType = { read(buffer: Buffer, offset: number): unknown; size(value: unknown): number };
type Definitions = {
  commandsById: Record<number, { command: string }>;
  commands: Record<string, { params?: Record<string, { type: FieldType }>; tlvMap?: Record<string, string> }>;
  tlvsById: Record<number, { tag: string; type: unknown; multiple?: boolean }>;
  types: { tlv: Record<'int8' | 'int16' | 'int32' | 'cstring' | 'string' | 'buffer', unknown> };
};

const defs = smpp as unknown as Definitions;
const TLV_TYPES = defs.types.tlv;
const HEADER_BYTES = 16;

/** The package's name of a command id; null for one it does not know. */
export function commandName(commandId: number): string | null {
  return defs.commandsById[commandId]?.command ?? null;
}

/**
 * The mandatory fields of `command` in `frame`, read with the package's field types, and where
 * they end. Throws when they run past the frame: a body that cannot be read.
 */
export function readMandatoryFields(frame: Buffer, command: string): { fields: Record<string, unknown>; end: number } {
  const params = defs.commands[command]?.params ?? {};
  const fields: Record<string, unknown> = {};
  let offset = HEADER_BYTES;
  for (const [name, param] of Object.entries(params)) {
    if (offset >= frame.length) break;
    const value = param.type.read(frame, offset);
    fields[name] = value;
    offset += param.type.size(value);
  }
  if (offset > frame.length) throw new RangeError(`${command}: its fields run past the PDU's end`);
  return { fields, end: offset };
}

function readValue(type: unknown, bytes: Buffer): unknown {
  switch (type) {
    case TLV_TYPES.int8:
      return bytes.length >= 1 ? bytes.readUInt8(0) : undefined;
    case TLV_TYPES.int16:
      return bytes.length >= 2 ? bytes.readUInt16BE(0) : undefined;
    case TLV_TYPES.int32:
      return bytes.length >= 4 ? bytes.readUInt32BE(0) : undefined;
    case TLV_TYPES.cstring: {
      const nul = bytes.indexOf(0);
      // latin1 keeps every byte as one character: the raw id can still be shown in hex.
      return bytes.toString('latin1', 0, nul >= 0 ? nul : bytes.length);
    }
    case TLV_TYPES.string:
      return bytes.toString('latin1');
    default:
      return Buffer.from(bytes);
  }
}

/**
 * The TLVs from `offset` to the frame's end, by the package's names (unknown tags by number, as
 * raw bytes). A TLV whose value is shorter than its type (an int8 of length 0) is left out.
 */
export function readTlvs(frame: Buffer, offset: number, command: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const tlvMap = defs.commands[command]?.tlvMap ?? {};
  let at = offset;
  while (at + 4 <= frame.length) {
    const tag = frame.readUInt16BE(at);
    const length = frame.readUInt16BE(at + 2);
    at += 4;
    if (at + length > frame.length) {
      throw new RangeError(
        `TLV 0x${tag.toString(16).padStart(4, '0')} declares ${length} bytes, ${frame.length - at} left`,
      );
    }
    const bytes = frame.subarray(at, at + length);
    at += length;
    const def = defs.tlvsById[tag];
    if (!def) {
      out[tag] = Buffer.from(bytes);
      continue;
    }
    const value = readValue(def.type, bytes);
    if (value === undefined) continue;
    const name = tlvMap[def.tag] ?? def.tag;
    if (def.multiple) out[name] = [...((out[name] as unknown[] | undefined) ?? []), value];
    else out[name] = value;
  }
  return out;
}
