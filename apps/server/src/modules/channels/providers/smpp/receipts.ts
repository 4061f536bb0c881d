/**
 * Delivery receipts (SMPP 3.4 Appendix B and §5.3.2.12/.35): the TLVs `receipted_message_id`,
 * `message_state` and `network_error_code` when the SMSC sends them, else the text
 * `id:IIII sub:SSS dlvrd:DDD submit date:YYMMDDhhmm done date:YYMMDDhhmm stat:DDDDDDD err:E text:…`.
 * Both are read when both are there: the TLVs win, the text fills what they lack. A
 * receipted_message_id that is no usable id (empty, control or non-ASCII bytes, longer than SMPP's
 * 64 characters) gives way to the text's `id:`.
 *
 * Status mapping (Ecoa's StatusEvent):
 * - DELIVRD → delivered.
 * - UNDELIV, REJECTD, DELETED → failed; EXPIRED → expired.
 * - UNKNOWN and ACCEPTD → unknown: final states that do not say the handset got it (ACCEPTD is
 *   an operator's manual acceptance).
 * - ENROUTE (and SCHEDULED / message_state 0-1) → not reported: an intermediate notification,
 *   not a change Ecoa tracks; reporting it as "sent" could move a delivered message back.
 * The reason keeps the carrier's words: `SMPP_UNDELIV_err_001` (stat and err as received).
 */
import type { StatusEvent } from '../../provider.ts';
import { canonicalMessageId } from './message-ids.ts';

/** message_state TLV values → the stat words of the receipt text. */
const MESSAGE_STATES: Record<number, string> = {
  0: 'SCHEDULED',
  1: 'ENROUTE',
  2: 'DELIVRD',
  3: 'EXPIRED',
  4: 'DELETED',
  5: 'UNDELIV',
  6: 'ACCEPTD',
  7: 'UNKNOWN',
  8: 'REJECTD',
  9: 'SKIPPED',
};

/** Long names some SMSCs write in the text instead of the 7-letter ones. */
const STAT_ALIASES: Record<string, string> = {
  DELIVERED: 'DELIVRD',
  UNDELIVERABLE: 'UNDELIV',
  UNDELIVERED: 'UNDELIV',
  REJECTED: 'REJECTD',
  ACCEPTED: 'ACCEPTD',
};

type ReportedStatus = StatusEvent['status'];

const STAT_TO_STATUS: Record<string, ReportedStatus | null> = {
  DELIVRD: 'delivered',
  UNDELIV: 'failed',
  REJECTD: 'failed',
  DELETED: 'failed',
  EXPIRED: 'expired',
  UNKNOWN: 'unknown',
  ACCEPTD: 'unknown',
  SKIPPED: 'failed',
  ENROUTE: null,
  SCHEDULED: null,
};

export type ReceiptText = { id: string | null; stat: string | null; err: string | null };

/**
 * Reads the fields of a receipt text. Only what comes before ` text:` is read (the original
 * message's first characters follow it and may say anything, `stat:DELIVRD` included). Keys are
 * case-insensitive; values are taken as written (the id canonicalised later).
 */
export function parseReceiptText(text: string): ReceiptText {
  const cut = text.search(/\btext:/i);
  const head = cut >= 0 ? text.slice(0, cut) : text;
  const field = (name: string) => new RegExp(`(?:^|\\s)${name}:([^\\s]*)`, 'i').exec(head)?.[1] ?? null;
  const id = field('id');
  const stat = field('stat');
  const err = field('err');
  return { id: id === '' ? null : id, stat: stat ? stat.toUpperCase() : null, err: err || null };
}

export type ReceiptFields = {
  /** receipted_message_id TLV, raw. */
  tlvId: string | null;
  /** message_state TLV. */
  messageState: number | null;
  /** network_error_code TLV (3 octets: network type, error code). */
  networkErrorCode: Buffer | null;
  /** The receipt's text (short_message or message_payload, read as ASCII). */
  text: string;
};

export type Receipt = {
  tlvId: string | null;
  textId: string | null;
  /** The ids as the SMSC wrote them, in hex (for the warning about a receipt that matched nothing). */
  rawHex: { tlvId: string | null; textId: string | null };
  /** null: an intermediate notification (ENROUTE…), acknowledged and not reported. */
  status: ReportedStatus | null;
  stat: string | null;
  reason: string | undefined;
};

/** SMPP 3.4 message ids are C-octet strings of at most 65 octets, the NUL included. */
const MAX_ID_LENGTH = 64;
const PRINTABLE_ASCII = /^[\x21-\x7e]+$/;

/** The canonical id, or null when `raw` cannot be a message id (see the file's comment). */
function usableId(raw: string | null): string | null {
  if (raw === null) return null;
  const id = canonicalMessageId(raw);
  return id.length > 0 && id.length <= MAX_ID_LENGTH && PRINTABLE_ASCII.test(id) ? id : null;
}

const hexOf = (raw: string | null) => (raw === null ? null : Buffer.from(raw, 'latin1').toString('hex'));

/** The receipt's ids (canonical), status and reason; null when it names no message at all. */
export function readReceipt(fields: ReceiptFields): Receipt | null {
  const parsed = parseReceiptText(fields.text);
  const tlv = usableId(fields.tlvId);
  const txt = usableId(parsed.id);
  if (tlv === null && txt === null) return null;

  const stateStat = fields.messageState === null ? undefined : MESSAGE_STATES[fields.messageState];
  const textStat = parsed.stat === null ? null : (STAT_ALIASES[parsed.stat] ?? parsed.stat);
  const stat = stateStat ?? textStat;
  const mapped = stat === null ? undefined : STAT_TO_STATUS[stat];
  // A stat nobody documents is a final state we cannot read: unknown, with the word kept.
  const status: ReportedStatus | null = mapped === undefined ? 'unknown' : mapped;

  let err = parsed.err;
  if (err === null && fields.networkErrorCode && fields.networkErrorCode.length >= 3) {
    err = String(fields.networkErrorCode.readUInt16BE(1)).padStart(3, '0');
  }
  const safeStat = (stat ?? 'NOSTAT').replace(/[^A-Z0-9]/gi, '').slice(0, 16) || 'NOSTAT';
  const safeErr = err?.replace(/[^A-Za-z0-9]/g, '').slice(0, 16);
  const reason =
    status === 'delivered' || status === null ? undefined : `SMPP_${safeStat}${safeErr ? `_err_${safeErr}` : ''}`;
  const rawHex = { tlvId: hexOf(fields.tlvId), textId: hexOf(parsed.id) };
  return { tlvId: tlv, textId: txt, rawHex, status, stat, reason };
}
