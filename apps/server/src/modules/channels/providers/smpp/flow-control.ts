import type { RateShare } from '../../../../platform/pacing/process-share.ts';

/**
 * The per-bind submit rate (TPS), enforced by us: the `smpp` package has no flow control and an
 * SMSC answers a faster client with ESME_RTHROTTLED, or cuts the bind.
 *
 * At most `limit` submits in any window of `windowMs`: one second plus a margin (100 ms by default),
 * since the SMSC counts by arrival and a first submit that reached it late would otherwise make
 * the next second's burst look like limit + 1.
 *
 * With several dispatching processes each on its own bind of the same account, this process keeps
 * to its share of the rate (`share`, process-share.ts): the binds' windows then add up to the
 * account's tps whatever their phases.
 *
 * A throttling answer halves the rate in use (at least 1/s); each window without one gives back
 * a tenth of the limit, so the bind climbs back to its contracted rate.
 */
export class TpsLimiter {
  private readonly sent: number[] = [];
  private head = 0;
  private current: number;
  private lastAdjust: number;

  constructor(
    readonly limit: number,
    private readonly windowMs: number,
    now = Date.now(),
    /** This process's share of a rate (the whole rate when alone). */
    private readonly share: RateShare = { of: (rate) => rate },
  ) {
    this.current = limit;
    this.lastAdjust = now;
  }

  /** The rate allowed now (the limit, or less after throttling answers). */
  effectiveLimit(now: number): number {
    this.recover(now);
    return this.current;
  }

  /** Submits sent in the last second. */
  inUse(now: number): number {
    this.prune(now - 1000);
    return this.sent.length - this.head;
  }

  /** 0 when a submit may go now, else how long to wait. */
  waitMs(now: number): number {
    this.recover(now);
    this.prune(now - this.windowMs);
    const count = this.sent.length - this.head;
    const allowed = Math.floor(this.share.of(this.current));
    // No share for now (this process has just joined): look again in a second.
    if (allowed < 1) return 1000;
    if (count < allowed) return 0;
    const oldestThatMustExpire = this.sent[this.head + count - allowed]!;
    return Math.max(1, oldestThatMustExpire + this.windowMs - now);
  }

  record(now: number): void {
    this.sent.push(now);
  }

  /** The SMSC said "too fast": slow down. */
  throttled(now: number): void {
    this.current = Math.max(1, Math.floor(this.current / 2));
    this.lastAdjust = now;
  }

  private recover(now: number): void {
    if (this.current >= this.limit) {
      this.lastAdjust = now;
      return;
    }
    const windows = Math.floor((now - this.lastAdjust) / this.windowMs);
    if (windows <= 0) return;
    this.current = Math.min(this.limit, this.current + windows * Math.max(1, Math.ceil(this.limit / 10)));
    this.lastAdjust += windows * this.windowMs;
  }

  private prune(before: number): void {
    while (this.head < this.sent.length && this.sent[this.head]! <= before) this.head++;
    // Compact now and then, so the array does not grow with every submit ever sent.
    if (this.head > 1024 && this.head * 2 > this.sent.length) {
      this.sent.splice(0, this.head);
      this.head = 0;
    }
  }
}
