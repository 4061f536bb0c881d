import { WEBHOOK_RETRY_WINDOW_MS } from '@ecoa/shared';
import { describe, expect, it } from 'vitest';
import { FIRST_RETRY_MS, MAX_RETRY_DELAY_MS, nextAttemptAt, retryDelayMs } from './webhooks.retries.ts';

describe('webhook retry schedule', () => {
  it('doubles from 30 s up to 4 h, ±25% jitter', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, () => 0.5))).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(retryDelayMs(1, () => 0)).toBe(FIRST_RETRY_MS * 0.75);
    expect(retryDelayMs(1, () => 0.999_999)).toBeLessThanOrEqual(FIRST_RETRY_MS * 1.25);
    expect(retryDelayMs(30, () => 0.5)).toBe(MAX_RETRY_DELAY_MS);
  });

  it('never past 3 days from the event: the last wait is cut to the end, then it gives up', () => {
    const from = new Date('2026-01-01T00:00:00Z');
    const end = from.getTime() + WEBHOOK_RETRY_WINDOW_MS;
    expect(nextAttemptAt(1, from, from, () => 0.5)?.getTime()).toBe(from.getTime() + 30_000);
    expect(nextAttemptAt(20, new Date(end - 60_000), from, () => 0.5)?.getTime()).toBe(end);
    expect(nextAttemptAt(21, new Date(end), from, () => 0.5)).toBeNull();
    // Every attempt of an endpoint that never answers, over the window: about two dozen.
    let at = from;
    let attempts = 0;
    for (let next: Date | null = from; next; next = nextAttemptAt(attempts, at, from, () => 0.5)) {
      at = next;
      attempts++;
    }
    expect(at.getTime()).toBe(end);
    expect(attempts).toBeGreaterThan(20);
    expect(attempts).toBeLessThan(30);
  });
});
