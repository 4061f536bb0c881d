/**
 * What the simulated SMSC received, counted the way the tests and the bench ask: parts and whole
 * messages per destination (a long SMS is whole when all its parts came), the same text to the
 * same number twice counted as a duplicate, the most submits in flight on one bind and in any one
 * second. Counted by the SMSC, so the adapter's limits are checked from the outside.
 */
import { PerSecondPeak } from '../../http-kit/simulator-kit.ts';

export type SubmitRecord = {
  at: number;
  bind: number;
  source: string;
  destination: string;
  dataCoding: number;
  esmClass: number;
  /** The whole short_message octets as received (UDH included). */
  shortMessage: Buffer;
  /** The UDH octets (UDHL included) when esm_class says there is one. */
  udh: Buffer | null;
  /** The text as the `smpp` package decodes it (an independent check of Ecoa's encoder). */
  text: string;
  messageId: string;
};

export type DestinationCounts = { parts: number; messages: number; duplicates: number };

export type SmscCounters = {
  binds: number;
  bindsRefused: number;
  unbinds: number;
  drops: number;
  idleDrops: number;
  enquireLinks: number;
  /** submit_sm taken (parts). */
  submits: number;
  /** Whole messages: single parts, and long ones once all their parts came. */
  messages: number;
  duplicates: number;
  throttled: number;
  receiptsSent: number;
  receiptsRefused: number;
  moSent: number;
  maxInFlight: number;
  maxSubmitsPerSecond: number;
  perDestination: Record<string, DestinationCounts>;
};

export function emptyCounters(): SmscCounters {
  return {
    binds: 0,
    bindsRefused: 0,
    unbinds: 0,
    drops: 0,
    idleDrops: 0,
    enquireLinks: 0,
    submits: 0,
    messages: 0,
    duplicates: 0,
    throttled: 0,
    receiptsSent: 0,
    receiptsRefused: 0,
    moSent: 0,
    maxInFlight: 0,
    maxSubmitsPerSecond: 0,
    perDestination: Object.create(null) as Record<string, DestinationCounts>,
  };
}

export class SubmitLedger {
  counters = emptyCounters();
  records: SubmitRecord[] = [];
  private arrivals = new PerSecondPeak();
  private readonly partial = new Map<string, Map<number, string>>();
  private readonly seenTexts = new Map<string, Set<string>>();

  constructor(private readonly keepRecords: number) {}

  reset(): void {
    this.counters = emptyCounters();
    this.records = [];
    this.arrivals = new PerSecondPeak();
    this.partial.clear();
    this.seenTexts.clear();
  }

  /** A submit_sm arrived (before it is taken or refused): the per-second count. */
  arrival(now: number): number {
    const perSecond = this.arrivals.arrival(now);
    this.counters.maxSubmitsPerSecond = this.arrivals.peak;
    return perSecond;
  }

  inFlight(count: number): void {
    this.counters.maxInFlight = Math.max(this.counters.maxInFlight, count);
  }

  taken(record: SubmitRecord, concatenation: { reference: number; total: number; sequence: number } | null): void {
    const c = this.counters;
    c.submits++;
    const dest = c.perDestination[record.destination] ?? { parts: 0, messages: 0, duplicates: 0 };
    c.perDestination[record.destination] = dest;
    dest.parts++;
    if (this.records.length < this.keepRecords) this.records.push(record);
    let whole: string | null = record.text;
    if (concatenation && concatenation.total > 1) {
      const key = `${record.source}|${record.destination}|${concatenation.reference}|${concatenation.total}`;
      const parts = this.partial.get(key) ?? new Map<number, string>();
      parts.set(concatenation.sequence, record.text);
      this.partial.set(key, parts);
      whole = null;
      if (parts.size === concatenation.total) {
        this.partial.delete(key);
        whole = [...parts.entries()]
          .sort(([a], [b]) => a - b)
          .map(([, t]) => t)
          .join('');
      }
    }
    if (whole === null) return;
    c.messages++;
    dest.messages++;
    const seen = this.seenTexts.get(record.destination) ?? new Set<string>();
    this.seenTexts.set(record.destination, seen);
    if (seen.has(whole)) {
      c.duplicates++;
      dest.duplicates++;
    } else {
      seen.add(whole);
    }
  }
}
