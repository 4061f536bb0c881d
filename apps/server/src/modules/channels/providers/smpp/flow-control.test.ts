import { describe, expect, it } from 'vitest';
import { TpsLimiter } from './flow-control.ts';

/** Sends as fast as the limiter allows from `start` to `end` (ms, a manual clock); the send times. */
function drive(limiter: TpsLimiter, start: number, end: number): number[] {
  const sent: number[] = [];
  let now = start;
  while (now < end) {
    const wait = limiter.waitMs(now);
    if (wait === 0) {
      limiter.record(now);
      sent.push(now);
    } else {
      now += wait;
    }
  }
  return sent;
}

/** The most sends in any window of `ms` starting at a send. */
function maxInWindow(sent: number[], ms: number): number {
  let max = 0;
  for (let i = 0, j = 0; i < sent.length; i++) {
    while (sent[j]! <= sent[i]! - ms) j++;
    max = Math.max(max, i - j + 1);
  }
  return max;
}

describe('TpsLimiter', () => {
  it('allows at most the limit in any window of one second plus the margin', () => {
    const limiter = new TpsLimiter(10, 1050, 0);
    const sent = drive(limiter, 0, 10_000);
    expect(maxInWindow(sent, 1050)).toBe(10);
    expect(maxInWindow(sent, 1000)).toBe(10);
    // Nine and a half windows of 1050 ms in 10 s, ten submits each (the last one starting at 9450).
    expect(sent).toHaveLength(100);
    expect(limiter.inUse(9999)).toBe(10);
  });

  it('halves the rate on a throttling answer and climbs back a tenth per window', () => {
    const limiter = new TpsLimiter(20, 1000, 0);
    limiter.throttled(0);
    expect(limiter.effectiveLimit(0)).toBe(10);
    limiter.throttled(0);
    limiter.throttled(0);
    expect(limiter.effectiveLimit(0)).toBe(2);
    expect(limiter.effectiveLimit(999)).toBe(2);
    expect(limiter.effectiveLimit(1000)).toBe(4);
    expect(limiter.effectiveLimit(3500)).toBe(8);
    expect(limiter.effectiveLimit(60_000)).toBe(20);
    expect(maxInWindow(drive(new TpsLimiter(1, 1000, 0), 0, 5000), 1000)).toBe(1);
  });

  it('never goes below one submit per window', () => {
    const limiter = new TpsLimiter(3, 1000, 0);
    for (let i = 0; i < 10; i++) limiter.throttled(0);
    expect(limiter.effectiveLimit(0)).toBe(1);
    expect(limiter.waitMs(0)).toBe(0);
  });
});
