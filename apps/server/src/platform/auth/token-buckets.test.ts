import { describe, expect, it } from 'vitest';
import { createManualClock } from '../clock/clock.ts';
import { createTokenBuckets } from './token-buckets.ts';

const rate = { perSecond: 10, burst: 50 };

describe('token buckets', () => {
  it('allows the burst at once, then one request per 1/perSecond, with the headers’ figures', () => {
    const clock = createManualClock();
    const buckets = createTokenBuckets(clock);
    for (let i = 1; i <= 50; i++) {
      expect(buckets.take('k', rate)).toEqual({
        allowed: true,
        limit: 50,
        remaining: 50 - i,
        resetSeconds: Math.ceil(i / 10),
        retryAfterSeconds: 0,
      });
    }
    expect(buckets.take('k', rate)).toEqual({
      allowed: false,
      limit: 50,
      remaining: 0,
      resetSeconds: 5,
      retryAfterSeconds: 1,
    });
    clock.advance(99);
    expect(buckets.take('k', rate).allowed).toBe(false);
    clock.advance(1);
    expect(buckets.take('k', rate).allowed).toBe(true);
    expect(buckets.take('k', rate).allowed).toBe(false);
  });

  it('keeps one bucket per id and never fills past the burst', () => {
    const clock = createManualClock();
    const buckets = createTokenBuckets(clock);
    for (let i = 0; i < 50; i++) buckets.take('a', rate);
    expect(buckets.take('a', rate).allowed).toBe(false);
    expect(buckets.take('b', rate).remaining).toBe(49);
    clock.advance(3_600_000);
    expect(buckets.take('a', rate).remaining).toBe(49);
  });

  it('a slow rate waits whole seconds: Retry-After rounds up', () => {
    const clock = createManualClock();
    const buckets = createTokenBuckets(clock);
    const slow = { perSecond: 1, burst: 1 };
    expect(buckets.take('s', slow).allowed).toBe(true);
    clock.advance(200);
    expect(buckets.take('s', slow)).toMatchObject({ allowed: false, retryAfterSeconds: 1, resetSeconds: 1 });
  });

  it('forgets full buckets once it holds many (a full bucket is the same as none)', () => {
    const clock = createManualClock();
    const buckets = createTokenBuckets(clock);
    for (let i = 0; i <= 10_000; i++) buckets.take(`id-${i}`, rate);
    expect(buckets.size()).toBe(10_001);
    clock.advance(200); // every bucket has its token back
    buckets.take('new', rate);
    expect(buckets.size()).toBe(1);
  });
});
