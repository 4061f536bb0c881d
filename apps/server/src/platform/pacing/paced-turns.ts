/**
 * Evenly spaced turns at a rate (per second), served in call order, that a caller can give up
 * (an AbortSignal) or the owner can close. Used by the dispatcher's campaign and carrier paces
 * and by the providers' own (voice calls per second, WhatsApp and RCS sends per second).
 *
 * Besides the spacing, no window of one second (plus `marginMs`) ever holds more than the rate's
 * whole turns: a late timer that catches up, or a rate that changed, cannot make a second of
 * rate + 1. The margin is for a receiver that counts by arrival (a carrier): a turn that reached
 * it late would otherwise make the next second's look like one too many.
 *
 * The rate may be a function, read at each turn (a process's share, which changes as processes
 * come and go); a rate of 0 gives no turns until it rises (checked every second).
 *
 * Waiters hold no slot: a turn is given when it is due, to the first waiter still waiting. A
 * stopped campaign's hundred waiters leave nothing behind (with pre-assigned slots they would
 * have pushed every later caller's turn hundreds of intervals into the future).
 */
export class PaceAbortedError extends Error {
  constructor() {
    super('the wait for a turn was abandoned (the sending stopped)');
    this.name = 'PaceAbortedError';
  }
}

type Waiter = { resolve: () => void; reject: (error: Error) => void; signal?: AbortSignal; onAbort?: () => void };

/** While the rate is 0, how often it is read again. */
const ZERO_RATE_RECHECK_MS = 1_000;

export class PacedTurns {
  private rate: () => number;
  /** When the last turn was due (ms on `now`'s scale); -Infinity before the first. */
  private lastTurn = Number.NEGATIVE_INFINITY;
  /** When the recent turns were given, oldest first (from `recentHead`): the window's count. */
  private recent: number[] = [];
  private recentHead = 0;
  private readonly waiting: Waiter[] = [];
  private timer: NodeJS.Timeout | null = null;
  /** When the turn the timer waits for was due: the turns due since then are the timer's lateness. */
  private timerFor = Number.POSITIVE_INFINITY;
  private closedWith: (() => Error) | null = null;

  constructor(
    perSecond: number | (() => number),
    private readonly now: () => number = () => performance.now(),
    private readonly marginMs = 0,
  ) {
    this.rate = typeof perSecond === 'function' ? perSecond : PacedTurns.fixed(perSecond);
  }

  private static fixed(perSecond: number): () => number {
    if (!(perSecond > 0)) throw new RangeError(`a rate must be positive (got ${perSecond})`);
    return () => perSecond;
  }

  setRate(perSecond: number): void {
    this.rate = PacedTurns.fixed(perSecond);
  }

  get waiters(): number {
    return this.waiting.length;
  }

  /** Resolves at the caller's turn; rejects with PaceAbortedError when `signal` aborts first, or the close error. */
  take(signal?: AbortSignal): Promise<void> {
    if (this.closedWith) return Promise.reject(this.closedWith());
    if (signal?.aborted) return Promise.reject(new PaceAbortedError());
    const now = this.now();
    if (this.waiting.length === 0) {
      const next = this.next();
      if (next && now >= next.due) {
        // Idle: no credit piles up while nobody asks (a burst after a pause would exceed the rate).
        this.give(now, now);
        return Promise.resolve();
      }
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, signal };
      if (signal) {
        waiter.onAbort = () => {
          const at = this.waiting.indexOf(waiter);
          if (at >= 0) this.waiting.splice(at, 1);
          reject(new PaceAbortedError());
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      this.waiting.push(waiter);
      this.schedule();
    });
  }

  /** Every waiter is refused with `error()`, and every later caller too. */
  close(error: () => Error): void {
    this.closedWith = error;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const waiter of this.waiting.splice(0)) {
      this.forget(waiter);
      waiter.reject(error());
    }
  }

  /** When the next turn is due and the spacing at the rate now; null while the rate is 0. */
  private next(): { due: number; intervalMs: number } | null {
    const rate = this.rate();
    if (!(rate > 0)) return null;
    const intervalMs = 1000 / rate;
    // Whole turns per window: a rate of 10 gives 10 per second; 0.5 gives 1 per 2 seconds.
    const perWindow = Math.max(1, Math.floor(rate));
    const windowMs = (perWindow * 1000) / rate + this.marginMs;
    let due = this.lastTurn + intervalMs;
    const inWindow = this.recent.length - this.recentHead;
    if (inWindow >= perWindow) due = Math.max(due, this.recent[this.recent.length - perWindow]! + windowMs);
    return { due, intervalMs };
  }

  /** A turn given at `now`, due at `due` (the spacing counts from when it was due, the window from when it was given). */
  private give(due: number, now: number): void {
    this.lastTurn = due;
    this.recent.push(now);
    // Only the last window's worth is ever looked at (the rate's whole turns, as `next` counts them).
    const keep = Math.max(1, Math.floor(this.rate()));
    if (this.recent.length - this.recentHead > keep) this.recentHead = this.recent.length - keep;
    if (this.recentHead > 1024) {
      this.recent = this.recent.slice(this.recentHead);
      this.recentHead = 0;
    }
  }

  private schedule(): void {
    if (this.timer || this.waiting.length === 0) return;
    const next = this.next();
    const delay = next ? Math.max(0, Math.ceil(next.due - this.now())) : ZERO_RATE_RECHECK_MS;
    this.timerFor = next ? next.due : Number.POSITIVE_INFINITY;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.grant();
    }, delay);
  }

  /**
   * Gives every turn that is due since the turn the timer waited for (a late timer catches up on
   * its own lateness only, as pre-assigned slots would; the window still caps any second). A
   * timer fires a millisecond or more after it is set: at 100,000 a second that millisecond
   * holds a hundred turns, and catching up one interval only (as this did) capped every carrier
   * at about 1,700 sends a second, whatever its limit.
   */
  private grant(): void {
    const now = this.now();
    while (this.waiting.length > 0) {
      const next = this.next();
      if (!next || now < next.due) break;
      // The first turn ever (a rate that was 0 from the start) is simply now.
      this.give(
        Number.isFinite(next.due) ? Math.max(next.due, Math.min(this.timerFor, now - next.intervalMs)) : now,
        now,
      );
      const waiter = this.waiting.shift()!;
      this.forget(waiter);
      waiter.resolve();
    }
    this.schedule();
  }

  private forget(waiter: Waiter): void {
    if (waiter.signal && waiter.onAbort) waiter.signal.removeEventListener('abort', waiter.onAbort);
  }
}
