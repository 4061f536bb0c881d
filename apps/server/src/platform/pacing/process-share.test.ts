import { describe, expect, it } from 'vitest';
import { createProcessShare, type LiveWorker, shareOf, viewOf } from './process-share.ts';

const sending = (workers: number, rank: number) => ({ workers, rank, sending: true });

describe("a process's share of a rate", () => {
  it('whole sends per second that add up to the rate, the remainder to the lowest ranks', () => {
    const shares = (rate: number, workers: number) =>
      Array.from({ length: workers }, (_, rank) => shareOf(rate, sending(workers, rank)));
    expect(shares(30, 3)).toEqual([10, 10, 10]);
    expect(shares(31, 3)).toEqual([11, 10, 10]);
    expect(shares(15, 2)).toEqual([8, 7]);
    expect(shares(2, 3)).toEqual([1, 1, 0]);
    // Under one a second, one process sends it all (two could otherwise land in the same second).
    expect(shares(0.5, 3)).toEqual([0.5, 0, 0]);
    // A fraction above one is dropped when shared: 7.9 a second shared by two is 4 + 3.
    expect(shares(7.9, 2)).toEqual([4, 3]);
    for (const [rate, workers] of [
      [80, 3],
      [1, 2],
      [100, 7],
    ] as const)
      expect(shares(rate, workers).reduce((a, b) => a + b, 0)).toBe(rate);
  });

  it('a process that works jobs sends nothing until its supervisor has counted the processes', () => {
    const share = createProcessShare('uncounted');
    expect(share.of(30)).toBe(0);
    share.update({ workers: 0, rank: 0, sending: true });
    expect(share.view()).toEqual({ workers: 1, rank: 0, sending: true });
    expect(share.of(30)).toBe(30);
    expect(createProcessShare().of(30)).toBe(30);
  });

  it("a carrier account's rate is shared among the processes on it; one it was not counted for falls back to all", () => {
    const share = createProcessShare('uncounted');
    share.update(
      { workers: 3, rank: 2, sending: true },
      new Map([
        ['smpp:shared', { workers: 3, rank: 2, sending: true }],
        ['rcs:own-simulator', { workers: 1, rank: 0, sending: true }],
      ]),
    );
    expect(share.forCarrier('smpp:shared').of(31)).toBe(10);
    expect(share.forCarrier('rcs:own-simulator').of(31)).toBe(31);
    expect(share.forCarrier('voice:unknown').of(31)).toBe(10);
    expect(share.of(31)).toBe(10);
  });

  it('alone, the whole rate (fractions too); while warming, nothing', () => {
    expect(shareOf(2.5, sending(1, 0))).toBe(2.5);
    expect(shareOf(30, { workers: 3, rank: 0, sending: false })).toBe(0);
  });
});

describe("this process's view of the live processes", () => {
  const at = 1_000_000;
  const worker = (id: string, startedAt: number, viewedAt: number | null, heartbeatAt = at): LiveWorker => ({
    id,
    startedAt,
    viewedAt,
    heartbeatAt,
    carriers: [],
  });

  it('the oldest sends at once; one that joined waits until every other process has counted it', () => {
    const old = worker('a', at - 60_000, at - 4_000);
    const joined = worker('b', at - 2_000, at);
    expect(viewOf([old, joined], 'a', at, 15_000)).toEqual({ workers: 2, rank: 0, sending: true });
    // The old process last counted before b joined: b waits.
    expect(viewOf([old, joined], 'b', at, 15_000)).toEqual({ workers: 2, rank: 1, sending: false });
    // Counted, but only within a second of b's start (b's row may not have been committed yet): still waits.
    expect(viewOf([{ ...old, viewedAt: at - 1_500 }, joined], 'b', at, 15_000).sending).toBe(false);
    expect(viewOf([{ ...old, viewedAt: at - 500 }, joined], 'b', at, 15_000).sending).toBe(true);
  });

  it('ranks by id, not by age; alone it sends', () => {
    expect(viewOf([worker('a', at - 1_000, null), worker('z', at - 90_000, at - 2_000)], 'a', at, 15_000)).toEqual({
      workers: 2,
      rank: 0,
      sending: false,
    });
    expect(viewOf([worker('q', at, null)], 'q', at, 15_000)).toEqual({ workers: 1, rank: 0, sending: true });
  });

  it('a process that missed its beats is not waited for (a restart after a crash), yet still counted', () => {
    const dead = worker('a', at - 600_000, at - 20_000, at - 20_000);
    const restarted = worker('b', at - 5_000, null);
    expect(viewOf([dead, restarted], 'b', at, 15_000)).toEqual({ workers: 2, rank: 1, sending: true });
    expect(viewOf([{ ...dead, heartbeatAt: at - 10_000 }, restarted], 'b', at, 15_000).sending).toBe(false);
  });

  it('not on record (its beat failed): counted among the others, and it sends nothing', () => {
    expect(viewOf([worker('a', at - 60_000, at)], 'b', at, 15_000)).toEqual({ workers: 2, rank: 1, sending: false });
  });
});
