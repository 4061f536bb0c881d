/** What the SMSC simulator can be told to do (defaults: a well-behaved carrier). */
import { pickWeighted } from '../../http-kit/simulator-kit.ts';

export type ReceiptOutcome = 'delivered' | 'undelivered' | 'expired' | 'rejected';
export type IdStyle = 'decimal' | 'hex-lower' | 'hex-upper';

export type SmscSimulatorOptions = {
  host: string;
  /** SMPP port; 0 picks a free one. */
  port: number;
  /** The HTTP control API's port (0 picks one); null: no HTTP API. */
  httpPort: number | null;
  systemId: string;
  password: string;
  /** How submit_sm_resp message ids look. */
  messageIdStyle: IdStyle;
  /** The receipt text's `id:` base/case: 'same' as the submit id, or another style. */
  receiptIdStyle: 'same' | IdStyle;
  /** Padding of the receipt's ids: leading zeros (text and TLV), or NULs after the text id. */
  receiptIdPadding: 'none' | 'zeros' | 'nul';
  /** Receipt form: TLVs (receipted_message_id, message_state, network_error_code), text, or both. */
  receiptStyle: 'tlv' | 'text' | 'both';
  /**
   * receipted_message_id with its terminating NUL (SMPP 3.4), or without it, its declared length
   * the id's, followed by message_state and network_error_code (as several SMSCs write it).
   */
  receiptTlvNul: boolean;
  /** Where the receipt text goes: short_message, or message_payload with short_message empty. */
  receiptTextIn: 'short_message' | 'message_payload';
  /** Whether receipts are sent at all (when the submit asked for one). */
  receipts: boolean;
  /**
   * Keep the receipts that fall due instead of sending them; set back to false, every held one is
   * sent at once (a burst, as carriers deliver receipts after a backlog).
   */
  holdReceipts: boolean;
  receiptLatencyMs: number;
  /** Weights of the receipt outcomes, drawn with a seeded generator. */
  outcomes: Record<ReceiptOutcome, number>;
  /** Send the receipt before the submit_sm_resp (the race the channels core must handle). */
  receiptBeforeResponse: boolean;
  /** Delay before each submit_sm_resp, a throttling one too: keeps submits in flight (the window). */
  responseLatencyMs: number;
  /**
   * Answer every submit `throttleStatus` for this long after the option was set (or the simulator
   * started with it), as a carrier warming up or shedding load; null: no such window.
   */
  throttleAllForMs: number | null;
  /** The share of submits (0–1) answered `throttleStatus` instead of taken. */
  throttleShare: number;
  throttleStatus: number;
  /** Answer every submit with this error status (e.g. 0x0B invalid destination); null: take them. */
  rejectStatus: number | null;
  /** Refuse every part after the first of a long SMS with this status (part 1 taken, part 2 refused); null: take them. */
  refuseLaterParts: number | null;
  /** Every submit arriving before this time (epoch ms) is answered `throttleStatus` (a congested SMSC); null: none. */
  throttleUntil: number | null;
  /** Submits arriving faster than this per second are answered `throttleStatus`; null: no limit. */
  throttleAboveTps: number | null;
  /** The SMSC's own processing rate: responses are paced to it; null: as fast as it can. */
  throughputPerSecond: number | null;
  /** Drop the bind when this many more submits have arrived (the last one unanswered); null: never. */
  dropAfterSubmits: number | null;
  /** Refuse this many next binds (ESME_RBINDFAIL), as an SMSC that is restarting. */
  refuseBinds: number;
  /** Drop a bind that sent nothing for this long (what real SMSCs do); null: never. */
  idleTimeoutMs: number | null;
  seed: number;
  /** How many received submits are kept with their bytes for inspection (counters count all). */
  keepRecords: number;
};

export const SMSC_SIMULATOR_DEFAULTS: SmscSimulatorOptions = {
  host: '127.0.0.1',
  port: 0,
  httpPort: 0,
  systemId: 'ecoa',
  password: 'ecoa-sim',
  messageIdStyle: 'hex-lower',
  receiptIdStyle: 'same',
  receiptIdPadding: 'none',
  receiptStyle: 'both',
  receiptTlvNul: true,
  receiptTextIn: 'short_message',
  receipts: true,
  holdReceipts: false,
  receiptLatencyMs: 200,
  outcomes: { delivered: 90, undelivered: 6, expired: 2, rejected: 2 },
  receiptBeforeResponse: false,
  responseLatencyMs: 0,
  throttleAllForMs: null,
  throttleShare: 0,
  throttleStatus: 0x58,
  throttleAboveTps: null,
  throttleUntil: null,
  refuseLaterParts: null,
  rejectStatus: null,
  throughputPerSecond: null,
  dropAfterSubmits: null,
  refuseBinds: 0,
  idleTimeoutMs: null,
  seed: 20_261_123,
  keepRecords: 10_000,
};

/** A small seeded generator (mulberry32): the same options give the same outcomes. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A receipt's outcome drawn by its weights; delivered when none weighs anything. */
export function pickOutcome(weights: Record<ReceiptOutcome, number>, random: number): ReceiptOutcome {
  return Object.values(weights).some((weight) => weight > 0) ? pickWeighted(weights, random) : 'delivered';
}

export function formatId(value: bigint, style: IdStyle): string {
  if (style === 'decimal') return value.toString(10);
  const hex = value.toString(16);
  return style === 'hex-upper' ? hex.toUpperCase() : hex;
}
