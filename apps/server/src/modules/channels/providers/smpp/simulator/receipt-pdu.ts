/**
 * A delivery receipt as the simulated SMSC writes it, in its configured style: the deliver_sm
 * fields the `smpp` package encodes, plus TLVs written here byte by byte when the style is one
 * the package cannot write (a receipted_message_id without its NUL).
 */
import smpp from 'smpp';
import { formatId, type ReceiptOutcome, type SmscSimulatorOptions } from './options.ts';

const STAT: Record<ReceiptOutcome, { stat: string; state: number; err: string }> = {
  delivered: { stat: 'DELIVRD', state: 2, err: '000' },
  undelivered: { stat: 'UNDELIV', state: 5, err: '001' },
  expired: { stat: 'EXPIRED', state: 3, err: '000' },
  rejected: { stat: 'REJECTD', state: 8, err: '002' },
};

export type ReceiptRequest = {
  /** The submit_sm_resp id as sent, and its numeric value (for other bases). */
  messageId: string;
  value: bigint;
  source: string;
  destination: string;
  text: string;
  submittedAt: Date;
  outcome: ReceiptOutcome;
};

function smppDate(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getUTCFullYear() % 100)}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}`;
}

export type ReceiptPdu = { fields: Record<string, unknown>; rawTlvs: Buffer | null };

function tlvBytes(tag: number, value: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt16BE(tag, 0);
  head.writeUInt16BE(value.length, 2);
  return Buffer.concat([head, value]);
}

export function receiptPdu(r: ReceiptRequest, o: SmscSimulatorOptions, now: Date): ReceiptPdu {
  const { stat, state, err } = STAT[r.outcome];
  let textId = o.receiptIdStyle === 'same' ? r.messageId : formatId(r.value, o.receiptIdStyle);
  let tlvId = r.messageId;
  if (o.receiptIdPadding === 'zeros') {
    textId = textId.padStart(20, '0');
    tlvId = tlvId.padStart(20, '0');
  } else if (o.receiptIdPadding === 'nul') {
    textId = `${textId}\u0000\u0000`;
  }
  // Appendix B: the first 20 characters of the message follow `text:` (ASCII here).
  const excerpt = r.text.slice(0, 20).replace(/[^\x20-\x7e]/g, '?');
  const dlvrd = r.outcome === 'delivered' ? '001' : '000';
  const text =
    `id:${textId} sub:001 dlvrd:${dlvrd} submit date:${smppDate(r.submittedAt)} done date:${smppDate(now)} ` +
    `stat:${stat} err:${err} text:${excerpt}`;
  const fields: Record<string, unknown> = {
    source_addr_ton: 1,
    source_addr_npi: 1,
    source_addr: r.destination,
    dest_addr_ton: 0,
    dest_addr_npi: 0,
    destination_addr: r.source,
    esm_class: 0x04,
    data_coding: 0,
    short_message: Buffer.alloc(0),
  };
  if (o.receiptStyle !== 'tlv') {
    if (o.receiptTextIn === 'message_payload') fields.message_payload = Buffer.from(text, 'latin1');
    else fields.short_message = Buffer.from(text, 'latin1');
  }
  if (o.receiptStyle === 'text') return { fields, rawTlvs: null };
  const networkErrorCode = r.outcome === 'delivered' ? null : Buffer.from([0x03, 0x00, Number(err)]);
  if (!o.receiptTlvNul) {
    // receipted_message_id (0x001E) first, without NUL, then message_state (0x0427) and network_error_code (0x0423).
    const rawTlvs = Buffer.concat([
      tlvBytes(0x001e, Buffer.from(tlvId, 'latin1')),
      tlvBytes(0x0427, Buffer.from([state])),
      ...(networkErrorCode ? [tlvBytes(0x0423, networkErrorCode)] : []),
    ]);
    return { fields, rawTlvs };
  }
  fields.receipted_message_id = tlvId;
  fields.message_state = state;
  if (networkErrorCode) fields.network_error_code = networkErrorCode;
  return { fields, rawTlvs: null };
}

/** The receipt's deliver_sm, ready for `session.send`; TLVs the package cannot write are appended to its bytes. */
export function receiptDeliverSm(r: ReceiptRequest, o: SmscSimulatorOptions, now: Date): smpp.PDU {
  const { fields, rawTlvs } = receiptPdu(r, o, now);
  const pdu = new smpp.PDU('deliver_sm', fields);
  if (rawTlvs) {
    const encode = pdu.toBuffer.bind(pdu);
    pdu.toBuffer = () => {
      const bytes = Buffer.concat([encode(), rawTlvs]);
      bytes.writeUInt32BE(bytes.length, 0);
      return bytes;
    };
  }
  return pdu;
}
