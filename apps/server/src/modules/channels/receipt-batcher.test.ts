import { describe, expect, it } from 'vitest';
import { createReceiptBatcher } from './receipt-batcher.ts';

type Options = Omit<Parameters<typeof createReceiptBatcher<number, string>>[0], 'apply'>;

/** A batcher whose store answers `stored <event>` and keeps each batch it was given in `applied`. */
function recordingBatcher(options: Options) {
  const applied: number[][] = [];
  const batcher = createReceiptBatcher<number, string>({
    apply: async (events) => {
      applied.push(events);
      return events.map((e) => `stored ${e}`);
    },
    ...options,
  });
  return { applied, batcher };
}

/** A batcher whose batches stay in flight until the test commits them (`commits[i]()`, in the order they left). */
function heldBatcher(options: Omit<Parameters<typeof createReceiptBatcher<number, number>>[0], 'apply'> = {}) {
  const applied: number[][] = [];
  const commits: (() => void)[] = [];
  const batcher = createReceiptBatcher<number, number>({
    ...options,
    apply: (events) => {
      applied.push(events);
      return new Promise((resolve) => commits.push(() => resolve(events)));
    },
  });
  return { applied, commits, batcher };
}

/** The event loop's next turn, when a waiting batch leaves. */
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('the receipt batcher', () => {
  it('gathers what arrives together into one batch, answers each with its own result, in order', async () => {
    const { applied, batcher } = recordingBatcher({ maxBatch: 3 });
    const results = await Promise.all([1, 2, 3, 4, 5].map((e) => batcher.push(e)));
    expect(results).toEqual(['stored 1', 'stored 2', 'stored 3', 'stored 4', 'stored 5']);
    expect(applied).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it('rejects every event of a failed batch (the carrier sends them again) and goes on with the next', async () => {
    let calls = 0;
    const batcher = createReceiptBatcher<number, number>({
      apply: async (events) => {
        calls++;
        if (calls === 1) throw new Error('database gone');
        return events;
      },
    });
    const first = batcher.push(1);
    await expect(first).rejects.toThrow('database gone');
    await expect(batcher.push(2)).resolves.toBe(2);
    await batcher.close();
  });

  it('hands the events `divert` claims to whoever claimed them; the batch stores the rest', async () => {
    const { applied, batcher } = recordingBatcher({
      divert: (e) => (e % 2 === 0 ? Promise.resolve(`rode along ${e}`) : undefined),
    });
    const results = await Promise.all([1, 2, 3, 4].map((e) => batcher.push(e)));
    expect(results).toEqual(['stored 1', 'rode along 2', 'stored 3', 'rode along 4']);
    expect(applied).toEqual([[1, 3]]);
    // A batch that was all diverted stores nothing and the next ones still flow.
    await expect(batcher.push(6)).resolves.toBe('rode along 6');
    await expect(batcher.push(7)).resolves.toBe('stored 7');
    await batcher.close();
  });

  it('stores what `store` is given itself, never diverted (a receipt that waited for its claimant long enough)', async () => {
    const { applied, batcher } = recordingBatcher({
      divert: (e) => Promise.resolve(`rode along ${e}`),
    });
    expect(await Promise.all([batcher.push(1), batcher.store(2)])).toEqual(['rode along 1', 'stored 2']);
    expect(applied).toEqual([[2]]);
    await batcher.close();
  });

  it('sends a batch on the next turn of the event loop: what arrives together goes together, a lone receipt waits for nothing', async () => {
    const { applied, batcher } = recordingBatcher({});
    await Promise.all([batcher.push(1), batcher.push(2), batcher.push(3)]);
    await batcher.push(4);
    expect(applied).toEqual([[1, 2, 3], [4]]);
  });

  it('stores up to `maxInFlight` batches at once; the next one fills until one of them commits', async () => {
    const { applied, commits, batcher } = heldBatcher({ maxInFlight: 2 });
    const first = batcher.push(1);
    await turn();
    const second = batcher.push(2);
    await turn();
    expect(applied).toEqual([[1], [2]]);
    const rest = [batcher.push(3), batcher.push(4)];
    await turn();
    await turn();
    expect(applied).toHaveLength(2);
    commits[1]!();
    await expect(second).resolves.toBe(2);
    await turn();
    expect(applied).toEqual([[1], [2], [3, 4]]);
    commits[0]!();
    commits[2]!();
    expect(await Promise.all([first, ...rest])).toEqual([1, 3, 4]);
    await batcher.close();
  });

  it('with one batch in flight, the next waits for its commit', async () => {
    const { applied, commits, batcher } = heldBatcher();
    const first = batcher.push(1);
    await turn();
    const second = batcher.push(2);
    await turn();
    await turn();
    expect(applied).toEqual([[1]]);
    commits[0]!();
    await expect(first).resolves.toBe(1);
    await turn();
    expect(applied).toEqual([[1], [2]]);
    commits[1]!();
    await expect(second).resolves.toBe(2);
  });
});
