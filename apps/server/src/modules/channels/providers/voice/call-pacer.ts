/**
 * Keeps call creation under the account's calls per second (CPS): each call gets the next free
 * start slot, `1000 / cps` ms after the previous one, in the order submits arrive. Evenly spaced
 * starts never burst, so a carrier's own limiter (a token bucket of one second's calls) is not
 * reached even when network jitter bunches a few requests together.
 */
export type CallPacer = {
  /** Resolves at this call's start slot; rejects when the pacer is closed first. */
  take(): Promise<void>;
  /** Calls started in the last second (for health). */
  startedLastSecond(): number;
  readonly callsPerSecond: number;
  close(): void;
};

export class PacerClosedError extends Error {
  constructor() {
    super('the voice provider is closing');
    this.name = 'PacerClosedError';
  }
}

export function createCallPacer(callsPerSecond: number): CallPacer {
  if (!(callsPerSecond > 0)) throw new Error(`calls per second must be positive (got ${callsPerSecond})`);
  const interval = 1000 / callsPerSecond;
  let nextSlot = 0;
  let closed = false;
  const starts: number[] = [];
  const waiting = new Set<{ timer: NodeJS.Timeout; reject: (error: Error) => void }>();

  return {
    callsPerSecond,
    async take() {
      if (closed) throw new PacerClosedError();
      const now = performance.now();
      const slot = Math.max(now, nextSlot);
      nextSlot = slot + interval;
      if (slot > now) {
        await new Promise<void>((resolve, reject) => {
          const entry = {
            timer: setTimeout(() => {
              waiting.delete(entry);
              resolve();
            }, slot - now),
            reject,
          };
          waiting.add(entry);
        });
      }
      starts.push(performance.now());
      if (starts.length > callsPerSecond * 2 + 10) starts.splice(0, starts.length - callsPerSecond - 10);
    },
    startedLastSecond() {
      const since = performance.now() - 1000;
      return starts.filter((t) => t > since).length;
    },
    close() {
      closed = true;
      for (const entry of waiting) {
        clearTimeout(entry.timer);
        entry.reject(new PacerClosedError());
      }
      waiting.clear();
    },
  };
}
