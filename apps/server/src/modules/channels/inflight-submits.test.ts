import { describe, expect, it } from 'vitest';
import { createInflightSubmits } from './inflight-submits.ts';
import type { ReceiptResult } from './message-batch-state.ts';
import type { StatusEvent } from './provider.ts';

const receipt = (id: string): StatusEvent => ({
  type: 'status',
  provider: 'whatsapp',
  providerMessageId: id,
  status: 'delivered',
  at: new Date(),
});

/** Blocks the event loop, as a loaded machine does between two statuses of one notification. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('receipts riding with a batch in flight', () => {
  it('receipts offered close together end their ride together, in one tick, so they are stored in one batch', async () => {
    const ticks: number[][] = [];
    let tick = 0;
    let inTick = false;
    // The ride clock sees the offers 8 ms apart, as meant; the real gaps (busy below) can be
    // longer on a loaded machine, which would otherwise split the group (CI did, once).
    let clock = 0;
    const inflight = createInflightSubmits({
      maxWaitMs: 100,
      now: () => clock,
      ordinary: async (event) => {
        // Calls made in the same macrotask share a tick number.
        if (!inTick) {
          inTick = true;
          tick++;
          setImmediate(() => (inTick = false));
          ticks.push([]);
        }
        ticks.at(-1)!.push(Number(event.providerMessageId));
        return { applied: true } as unknown as ReceiptResult;
      },
    });
    const answers: Promise<unknown>[] = [];
    for (const id of ['1', '2', '3', '4']) {
      inflight.batch().track('whatsapp', [id]);
      answers.push(inflight.offer(receipt(id))!);
      busy(8);
      clock += 8;
    }
    await Promise.all(answers);
    expect(tick).toBe(1);
    expect(ticks).toEqual([[1, 2, 3, 4]]);
  });

  it('a receipt whose batch was taken is answered by that settle, never also stored the ordinary way', async () => {
    const ordinary: string[] = [];
    const inflight = createInflightSubmits({
      maxWaitMs: 30,
      ordinary: async (event) => {
        ordinary.push(event.providerMessageId);
        return { applied: true } as unknown as ReceiptResult;
      },
    });
    const batch = inflight.batch();
    batch.track('whatsapp', ['7']);
    const answer = inflight.offer(receipt('7'))!;
    const other = inflight.batch();
    other.track('whatsapp', ['8']);
    const alone = inflight.offer(receipt('8'))!;
    expect(batch.take().map((e) => e.providerMessageId)).toEqual(['7']);
    await new Promise((resolve) => setTimeout(resolve, 60));
    batch.settled([{ applied: 'by-batch' } as unknown as ReceiptResult]);
    expect(await answer).toEqual({ applied: 'by-batch' });
    expect(await alone).toEqual({ applied: true });
    expect(ordinary).toEqual(['8']);
  });
});
