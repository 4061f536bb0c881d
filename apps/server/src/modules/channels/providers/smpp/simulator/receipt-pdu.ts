/** The deliver_sm fields of a delivery receipt as the simulated SMSC writes it, in its configured style. */
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

export function receiptFields(r: ReceiptRequest, o: SmscSimulatorOptions, now: Date): Record<string, unknown> {
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
    short_message: o.receiptStyle === 'tlv' ? Buffer.alloc(0) : Buffer.from(text, 'latin1'),
  };
  if (o.receiptStyle !== 'text') {
    fields.receipted_message_id = tlvId;
    fields.message_state = state;
    if (r.outcome !== 'delivered') fields.network_error_code = Buffer.from([0x03, 0x00, Number(err)]);
  }
  return fields;
}
