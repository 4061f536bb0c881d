import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { AbortGroups } from './abort-groups.ts';

describe('AbortGroups', () => {
  it('calls back once for each thing still watched when its signal aborts, and for nothing else', () => {
    const stopped: string[] = [];
    const groups = new AbortGroups<string>((item) => stopped.push(item));
    const batch = new AbortController();
    const other = new AbortController();
    groups.add(batch.signal, 'a');
    groups.add(batch.signal, 'b');
    groups.add(batch.signal, 'c');
    groups.add(other.signal, 'x');
    groups.add(undefined, 'no signal');
    groups.delete(batch.signal, 'b');
    // One listener per signal, not one per thing.
    expect(getEventListeners(batch.signal, 'abort')).toHaveLength(1);
    batch.abort();
    expect(stopped).toEqual(['a', 'c']);
    batch.abort();
    expect(stopped).toEqual(['a', 'c']);
    expect(groups.signals).toBe(1);
    other.abort();
    expect(stopped).toEqual(['a', 'c', 'x']);
    expect(groups.signals).toBe(0);
  });

  it('removes the listener with the last thing of its group, so a long-lived signal gathers none', () => {
    const groups = new AbortGroups<number>(() => {
      throw new Error('not aborted');
    });
    const stop = new AbortController();
    for (let i = 0; i < 1000; i++) {
      groups.add(stop.signal, i);
      groups.delete(stop.signal, i);
    }
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
    expect(groups.signals).toBe(0);
    stop.abort();
  });

  it('lets a callback stop watching things of the group being aborted', () => {
    const seen: number[] = [];
    const signal = new AbortController();
    const groups: AbortGroups<number> = new AbortGroups<number>((item) => {
      seen.push(item);
      groups.delete(signal.signal, item + 1);
    });
    for (const i of [1, 2, 3, 4]) groups.add(signal.signal, i);
    signal.abort();
    // 1 stops watching 2; 3 stops watching 4.
    expect(seen).toEqual([1, 3]);
  });
});
