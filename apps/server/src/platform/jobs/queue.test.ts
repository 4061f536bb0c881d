import { describe, expect, it } from 'vitest';
import type { Jobs } from './jobs.ts';
import { defineQueue } from './queue.ts';

describe('defineQueue', () => {
  it('refuses a retry limit too low for a crashing job to be quarantined', () => {
    expect(() => defineQueue('test.low', { retryLimit: 1 })).toThrow(/retryLimit must be at least 2/);
    expect(defineQueue('test.ok', { retryLimit: 2 })).toEqual({ name: 'test.ok', options: { retryLimit: 2 } });
  });

  it('makes the sender and the handler agree on the payload (checked by the compiler)', () => {
    const queue = defineQueue<{ listId: string }>('test.typed');
    const other = defineQueue<{ campaignId: string }>('test.other');
    // Only compiled, never called: `tsc` fails if a wrong payload or handler is accepted.
    const uses = (jobs: Jobs) => {
      void jobs.send(queue, { listId: 'a' });
      // @ts-expect-error another queue's payload
      void jobs.send(queue, { campaignId: 'a' });
      // @ts-expect-error a payload missing its field
      void jobs.send(queue, {});
      jobs.work(queue, { handler: async (data) => void data.listId });
      // @ts-expect-error a handler reading another queue's payload
      jobs.work(queue, { handler: async (data: { campaignId: string }) => void data.campaignId });
      jobs.wake(other);
    };
    expect(typeof uses).toBe('function');
  });
});
