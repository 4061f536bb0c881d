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
});
