/**
 * When a failed delivery is tried again: exponential backoff (30 s doubling, at most 4 h between
 * attempts) with ±25% jitter, so receivers that went down together are not hit together when
 * they come back; never past the retry window (3 days from the event, or from its replay).
 */
import { WEBHOOK_RETRY_WINDOW_MS } from '@ecoa/shared';

export const FIRST_RETRY_MS = 30_000;
export const MAX_RETRY_DELAY_MS = 4 * 60 * 60 * 1000;

/** The wait after the `attempts`-th failed attempt (1-based); `random` in [0, 1). */
export function retryDelayMs(attempts: number, random: () => number = Math.random): number {
  const base = Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_DELAY_MS);
  return Math.round(base * (0.75 + random() * 0.5));
}

/**
 * The next attempt's time, or null: the retry window is over (the delivery has failed for good).
 * A wait that would cross the window's end is cut to it, so the last attempt comes at 3 days
 * exactly (the moment an endpoint failing all along is disabled).
 */
export function nextAttemptAt(attempts: number, now: Date, retryFrom: Date, random?: () => number): Date | null {
  const end = retryFrom.getTime() + WEBHOOK_RETRY_WINDOW_MS;
  if (now.getTime() >= end) return null;
  return new Date(Math.min(now.getTime() + retryDelayMs(attempts, random), end));
}
