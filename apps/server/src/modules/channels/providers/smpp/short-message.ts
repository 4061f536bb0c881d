/**
 * Text ⇄ the bytes of `short_message`, both ways, with the encoding always chosen by us.
 *
 * Out: `analyzeSms` (packages/shared, the same counter the campaign wizard shows) picks GSM-7 or
 * UCS-2 and cuts the parts; each part is its own submit_sm with data_coding 0 (GSM-7, unpacked
 * septets) or 8 (UCS-2), flash 0x10 / 0x18 (GSM 03.38 coding group 0001: message class 0), and a
 * long message's parts carry the concatenation UDH (IEI 0x00, 8-bit reference) with esm_class 0x40.
 *
 * In: data_coding → alphabet (GSM-7, IA5/ASCII, Latin-1, UCS-2; 8-bit data as Latin-1), the UDH
 * (IEI 0x00 / 0x08) read for concatenation and cut off.
 */
import { analyzeSms, decodeGsm7, decodeUcs2, encodeGsm7, encodeUcs2, type SmsEncoding } from '@ecoa/shared';
import type { PlainSubmit } from './pdu.ts';

export const ESM_CLASS_UDHI = 0x40;
/** esm_class bits 2–5 of a deliver_sm: 0001 = SMSC delivery receipt (also 0x08/0x10/0x20 acks). */
export const ESM_CLASS_TYPE_MASK = 0x3c;

export type OutboundPart = { shortMessage: Buffer; dataCoding: number; esmClass: number };

export function dataCodingOf(encoding: SmsEncoding, flash: boolean): number {
  if (encoding === 'gsm7') return flash ? 0x10 : 0x00;
  return flash ? 0x18 : 0x08;
}

/** The submit_sm parts of one text; `reference` identifies the parts of one message (0–255). */
export function outboundParts(text: string, flash: boolean, reference: number): OutboundPart[] {
  const analysis = analyzeSms(text);
  const dataCoding = dataCodingOf(analysis.encoding, flash);
  const encode = analysis.encoding === 'gsm7' ? encodeGsm7 : encodeUcs2;
  const total = analysis.parts.length;
  return analysis.parts.map((part, i) => {
    const body = Buffer.from(encode(part));
    if (total === 1) return { shortMessage: body, dataCoding, esmClass: 0 };
    const udh = Buffer.from([0x05, 0x00, 0x03, reference & 0xff, total, i + 1]);
    return { shortMessage: Buffer.concat([udh, body]), dataCoding, esmClass: ESM_CLASS_UDHI };
  });
}

/**
 * The submit_sm fields of one part: to an international number (TON 1, NPI 1 ISDN), a delivery
 * receipt asked for on success or failure (registered_delivery 1). A numeric sender goes as an
 * international number, a name as alphanumeric (TON 5); none lets the SMSC put the account's own.
 * Exactly the fields pdu.ts writes itself (`PlainSubmit`): a field added here must be added there.
 */
export function submitSmFields(part: OutboundPart, destination: string, sourceAddr: string | undefined): PlainSubmit {
  const numericSender = sourceAddr !== undefined && /^\d+$/.test(sourceAddr);
  return {
    service_type: '',
    source_addr_ton: sourceAddr ? (numericSender ? 1 : 5) : 0,
    source_addr_npi: numericSender ? 1 : 0,
    source_addr: sourceAddr ?? '',
    dest_addr_ton: 1,
    dest_addr_npi: 1,
    destination_addr: destination,
    esm_class: part.esmClass,
    registered_delivery: 1,
    data_coding: part.dataCoding,
    short_message: part.shortMessage,
  };
}

export type Concatenation = { reference: number; total: number; sequence: number };

/** The UDH at the start of `bytes`: its length (with the UDHL octet) and any concatenation IE. */
export function readUdh(bytes: Buffer): { length: number; concatenation: Concatenation | null } | null {
  if (bytes.length === 0) return null;
  const length = bytes[0]! + 1;
  if (length > bytes.length) return null;
  let concatenation: Concatenation | null = null;
  let i = 1;
  while (i + 1 < length) {
    const iei = bytes[i]!;
    const ieLength = bytes[i + 1]!;
    const data = bytes.subarray(i + 2, i + 2 + ieLength);
    if (i + 2 + ieLength > length) break;
    if (iei === 0x00 && ieLength === 3) concatenation = { reference: data[0]!, total: data[1]!, sequence: data[2]! };
    if (iei === 0x08 && ieLength === 4)
      concatenation = { reference: data.readUInt16BE(0), total: data[2]!, sequence: data[3]! };
    i += 2 + ieLength;
  }
  return { length, concatenation };
}

/** The text of a message body for its data_coding (SMPP 3.4 §5.2.19; GSM 03.38 coding groups). */
export function decodeText(bytes: Buffer, dataCoding: number): string {
  switch (alphabetOf(dataCoding)) {
    case 'gsm7':
      return decodeGsm7(bytes);
    case 'ucs2':
      return decodeUcs2(bytes);
    case 'ascii':
      return bytes.toString('ascii');
    default:
      return bytes.toString('latin1');
  }
}

function alphabetOf(dataCoding: number): 'gsm7' | 'ucs2' | 'ascii' | 'latin1' {
  if (dataCoding <= 0x0f) {
    if (dataCoding === 0x00) return 'gsm7';
    if (dataCoding === 0x01) return 'ascii';
    if (dataCoding === 0x08) return 'ucs2';
    return 'latin1';
  }
  const group = dataCoding >> 4;
  // 00xx: general data coding (bits 3-2 alphabet); 1111: data coding/message class (bit 2: 8-bit).
  if (group <= 0x03) {
    const alphabet = (dataCoding >> 2) & 0x03;
    return alphabet === 0 ? 'gsm7' : alphabet === 2 ? 'ucs2' : 'latin1';
  }
  if (group === 0x0f) return dataCoding & 0x04 ? 'latin1' : 'gsm7';
  // 1100/1101 (message waiting, default alphabet), 1110 (message waiting, UCS-2).
  if (group === 0x0e) return 'ucs2';
  return 'gsm7';
}
