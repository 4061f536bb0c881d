/**
 * What arrives in a deliver_sm, turned into Ecoa's terms: a receipt (esm_class says so) or a
 * message a person sent (MO), whose parts are put back together (UDH IEI 0x00/0x08 or the SAR
 * TLVs). Everything here reads outside bytes: lengths are bounded, text is sanitized.
 */
import { normalizeBrazilianPhone, sanitizeText } from '@ecoa/shared';
import type { Pdu } from './pdu.ts';
import { type ReceiptFields, readReceipt } from './receipts.ts';
import { type Concatenation, decodeText, ESM_CLASS_TYPE_MASK, ESM_CLASS_UDHI, readUdh } from './short-message.ts';

export function isReceipt(pdu: Pdu): boolean {
  return ((Number(pdu.esm_class) || 0) & ESM_CLASS_TYPE_MASK) !== 0;
}

/** short_message, or message_payload when the SMSC used that instead (SMPP 3.4 §5.3.2.32). */
function bodyOf(pdu: Pdu): Buffer {
  const short = pdu.short_message;
  if (Buffer.isBuffer(short) && short.length > 0) return short;
  const payload = pdu.message_payload;
  return Buffer.isBuffer(payload) ? payload : Buffer.alloc(0);
}

function stringField(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

export function receiptOf(pdu: Pdu) {
  const fields: ReceiptFields = {
    tlvId: stringField(pdu.receipted_message_id),
    messageState: typeof pdu.message_state === 'number' ? pdu.message_state : null,
    networkErrorCode: Buffer.isBuffer(pdu.network_error_code) ? pdu.network_error_code : null,
    text: bodyOf(pdu).toString('latin1'),
  };
  return readReceipt(fields);
}

/** The sender in E.164 when it is a phone number; a short code or alphanumeric sender as it came. */
export function senderOf(pdu: Pdu): string {
  const raw = sanitizeText(stringField(pdu.source_addr) ?? '').trim();
  const international = pdu.source_addr_ton === 1;
  const digits = raw.replace(/^\+/, '');
  if (/^\d+$/.test(digits)) {
    const phone = normalizeBrazilianPhone(international ? `+${digits}` : digits);
    if (phone.ok) return phone.e164;
    if (international) return `+${digits}`;
  }
  return raw;
}

export type MoPart = { from: string; to: string; text: string; concatenation: Concatenation | null };

export function moPartOf(pdu: Pdu): MoPart {
  let body = bodyOf(pdu);
  let concatenation: Concatenation | null = null;
  if ((Number(pdu.esm_class) || 0) & ESM_CLASS_UDHI) {
    const udh = readUdh(body);
    if (udh) {
      concatenation = udh.concatenation;
      body = body.subarray(udh.length);
    }
  }
  if (!concatenation && typeof pdu.sar_msg_ref_num === 'number') {
    const total = Number(pdu.sar_total_segments);
    const sequence = Number(pdu.sar_segment_seqnum);
    if (total > 0 && sequence > 0) concatenation = { reference: pdu.sar_msg_ref_num, total, sequence };
  }
  if (concatenation && (concatenation.total < 2 || concatenation.sequence > concatenation.total)) concatenation = null;
  return {
    from: senderOf(pdu),
    to: sanitizeText(stringField(pdu.destination_addr) ?? ''),
    text: decodeText(body, Number(pdu.data_coding) || 0),
    concatenation,
  };
}

type Group = { parts: Map<number, string>; total: number; from: string; firstAt: number };

/**
 * Parts of MO messages waiting for their siblings. Bounded: at most `maxGroups` messages at once
 * (the oldest is given up as it is) and `maxAgeMs` per message; a message given up is delivered
 * with the parts that came, in order, rather than lost.
 */
export class MoReassembler {
  private readonly groups = new Map<string, Group>();

  constructor(
    private readonly maxGroups = 1000,
    private readonly maxAgeMs = 5 * 60_000,
  ) {}

  get waiting(): number {
    return this.groups.size;
  }

  /** The whole messages this part completes (or forces out): `{from, text}`. */
  add(part: MoPart, now: number): { from: string; text: string }[] {
    const done = this.expire(now);
    const c = part.concatenation;
    if (!c) {
      done.push({ from: part.from, text: clean(part.text) });
      return done;
    }
    const key = `${part.from}\u0000${part.to}\u0000${c.reference}\u0000${c.total}`;
    let group = this.groups.get(key);
    if (!group) {
      if (this.groups.size >= this.maxGroups) {
        const [oldestKey, oldest] = this.groups.entries().next().value!;
        this.groups.delete(oldestKey);
        done.push(joined(oldest));
      }
      group = { parts: new Map(), total: c.total, from: part.from, firstAt: now };
      this.groups.set(key, group);
    }
    group.parts.set(c.sequence, part.text);
    if (group.parts.size === group.total) {
      this.groups.delete(key);
      done.push(joined(group));
    }
    return done;
  }

  /** Messages waiting longer than allowed, delivered as they are. */
  expire(now: number): { from: string; text: string }[] {
    const out: { from: string; text: string }[] = [];
    for (const [key, group] of this.groups) {
      if (now - group.firstAt < this.maxAgeMs) break;
      this.groups.delete(key);
      out.push(joined(group));
    }
    return out;
  }
}

function joined(group: Group): { from: string; text: string } {
  const sequences = [...group.parts.keys()].sort((a, b) => a - b);
  return { from: group.from, text: clean(sequences.map((s) => group.parts.get(s)!).join('')) };
}

function clean(text: string): string {
  return sanitizeText(text, { multiline: true });
}
