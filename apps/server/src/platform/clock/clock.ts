/**
 * The server's notion of "now". Services take a Clock instead of calling `new Date()`, so
 * tests can move time (code expiry, session expiry, rate-limit windows) without waiting.
 */
export type Clock = {
  now(): Date;
};

export const systemClock: Clock = { now: () => new Date() };

/** Durations in milliseconds, for windows and lifetimes. */
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export type ManualClock = Clock & {
  /** Moves time forward (or back, with a negative value) by `ms` milliseconds. */
  advance(ms: number): void;
  set(date: Date): void;
};

/** A clock that only moves when told to (tests). Starts at `start`, the real time by default. */
export function createManualClock(start: Date = new Date()): ManualClock {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance(ms) {
      current += ms;
    },
    set(date) {
      current = date.getTime();
    },
  };
}
