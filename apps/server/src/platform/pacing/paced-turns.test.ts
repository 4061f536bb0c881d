import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PaceAbortedError, PacedTurns } from './paced-turns.ts';

/** The paces' turns on a fake clock: which caller gets a turn when, not how fast the machine is. */
describe('paced turns', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const settled = async (p: Promise<unknown>) => {
    let state = 'waiting';
    p.then(
      () => {
        state = 'given';
      },
      (err: Error) => {
        state = err.name;
      },
    );
    await vi.advanceTimersByTimeAsync(0);
    return () => state;
  };

  it('gives turns one interval apart, in call order', async () => {
    const turns = new PacedTurns(2, () => Date.now());
    const a = await settled(turns.take());
    const b = await settled(turns.take());
    const c = await settled(turns.take());
    expect([a(), b(), c()]).toEqual(['given', 'waiting', 'waiting']);
    await vi.advanceTimersByTimeAsync(500);
    expect([b(), c()]).toEqual(['given', 'waiting']);
    await vi.advanceTimersByTimeAsync(500);
    expect(c()).toBe('given');
  });

  it('a stopped sending leaves the line at once and holds no slot: the next caller is not pushed back', async () => {
    const turns = new PacedTurns(1, () => Date.now());
    await turns.take();
    const stop = new AbortController();
    const waiting = await Promise.all(Array.from({ length: 100 }, () => settled(turns.take(stop.signal))));
    stop.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(new Set(waiting.map((w) => w()))).toEqual(new Set(['PaceAbortedError']));
    expect(turns.waiters).toBe(0);
    const next = await settled(turns.take());
    await vi.advanceTimersByTimeAsync(1000);
    expect(next()).toBe('given');
    await expect(turns.take(stop.signal)).rejects.toBeInstanceOf(PaceAbortedError);
  });

  it('closing refuses every waiter and every later caller with the owner error', async () => {
    const turns = new PacedTurns(1, () => Date.now());
    await turns.take();
    const waiting = await settled(turns.take());
    turns.close(() => new Error('closing'));
    await vi.advanceTimersByTimeAsync(0);
    expect(waiting()).toBe('Error');
    await expect(turns.take()).rejects.toThrow('closing');
  });

  /** How many of `times` fall in the busiest window of `windowMs` (a window (t - windowMs, t]). */
  const busiest = (times: number[], windowMs: number) =>
    Math.max(...times.map((t) => times.filter((u) => u > t - windowMs && u <= t).length));

  it('a late timer catches up, yet no second (plus the margin) ever holds more than the rate', async () => {
    const turns = new PacedTurns(10, () => Date.now(), 50);
    const given: number[] = [];
    const all = Array.from({ length: 40 }, () => turns.take().then(() => given.push(Date.now())));
    // The event loop is held 350 ms twice: the turns due meanwhile are given at once when it frees.
    for (let step = 0; step < 50; step++) {
      if (step === 5 || step === 25) vi.setSystemTime(Date.now() + 350);
      await vi.advanceTimersByTimeAsync(100);
    }
    await Promise.all(all);
    expect(given).toHaveLength(40);
    expect(busiest(given, 1050)).toBeLessThanOrEqual(10);
  });

  it('faster than the timers tick (100,000 a second): a millisecond gives its hundred turns, not one or two', async () => {
    const turns = new PacedTurns(100_000, () => Date.now(), 100);
    const given: number[] = [];
    const all = Array.from({ length: 3_000 }, () => turns.take().then(() => given.push(Date.now())));
    const started = Date.now();
    await vi.advanceTimersByTimeAsync(40);
    // 3,000 turns at 100 a millisecond take 30 ms (one or two a tick would have given at most 80).
    expect(given).toHaveLength(3_000);
    await Promise.all(all);
    expect(Math.max(...given) - started).toBeLessThanOrEqual(31);
    expect(busiest(given, 1)).toBeLessThanOrEqual(101);
  });

  it('a rate read from a function: 0 gives no turn, and turns come again within a second once it rises', async () => {
    let share = 0;
    const turns = new PacedTurns(
      () => share,
      () => Date.now(),
    );
    const first = await settled(turns.take());
    await vi.advanceTimersByTimeAsync(5_000);
    expect(first()).toBe('waiting');
    share = 2;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(first()).toBe('given');
    const second = await settled(turns.take());
    await vi.advanceTimersByTimeAsync(499);
    expect(second()).toBe('waiting');
    await vi.advanceTimersByTimeAsync(1);
    expect(second()).toBe('given');
  });

  it('under one a second: one turn per 1/rate seconds plus the margin', async () => {
    const turns = new PacedTurns(0.5, () => Date.now(), 50);
    await turns.take();
    const next = await settled(turns.take());
    await vi.advanceTimersByTimeAsync(2_049);
    expect(next()).toBe('waiting');
    await vi.advanceTimersByTimeAsync(1);
    expect(next()).toBe('given');
  });
});
