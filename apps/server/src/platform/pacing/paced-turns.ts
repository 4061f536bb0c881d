/**
 * Evenly spaced turns at a rate (per second), served in call order, that a caller can give up
 * (an AbortSignal) or the owner can close. Used by the dispatcher's campaign and carrier paces
 * and by the providers' own (voice calls per second, WhatsApp and RCS sends per second).
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

export class PacedTurns {
  private intervalMs: number;
  /** When the last turn was given (ms on `now`'s scale); -Infinity before the first. */
  private lastTurn = Number.NEGATIVE_INFINITY;
  private readonly waiting: Waiter[] = [];
  private timer: NodeJS.Timeout | null = null;
  private closedWith: (() => Error) | null = null;

  constructor(
    perSecond: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.intervalMs = PacedTurns.interval(perSecond);
  }

  private static interval(perSecond: number): number {
    if (!(perSecond > 0)) throw new RangeError(`a rate must be positive (got ${perSecond})`);
    return 1000 / perSecond;
  }

  setRate(perSecond: number): void {
    this.intervalMs = PacedTurns.interval(perSecond);
  }

  get waiters(): number {
    return this.waiting.length;
  }

  /** Resolves at the caller's turn; rejects with PaceAbortedError when `signal` aborts first, or the close error. */
  take(signal?: AbortSignal): Promise<void> {
    if (this.closedWith) return Promise.reject(this.closedWith());
    if (signal?.aborted) return Promise.reject(new PaceAbortedError());
    const now = this.now();
    if (this.waiting.length === 0 && now >= this.lastTurn + this.intervalMs) {
      // Idle: no credit piles up while nobody asks (a burst after a pause would exceed the rate).
      this.lastTurn = now;
      return Promise.resolve();
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

  private schedule(): void {
    if (this.timer || this.waiting.length === 0) return;
    const due = this.lastTurn + this.intervalMs - this.now();
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.grant();
      },
      Math.max(0, Math.ceil(due)),
    );
  }

  /** Gives every turn that is due (a late timer catches up on its own lateness only, as pre-assigned slots would). */
  private grant(): void {
    const now = this.now();
    while (this.waiting.length > 0 && now >= this.lastTurn + this.intervalMs) {
      this.lastTurn = Math.max(this.lastTurn + this.intervalMs, now - this.intervalMs);
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
