import { MESSAGE_STATUSES, type MessageStatus } from '@ecoa/shared';
import { describe, expect, it } from 'vitest';
import { advances, combineParts, FINAL_STATUSES, isFinal } from './message-status.ts';

const FINAL: MessageStatus[] = ['delivered', 'failed', 'expired', 'opted_out', 'canceled'];
const ORDER: MessageStatus[] = ['queued', 'submitting', 'sent', 'unknown'];

describe('message status rules', () => {
  it('counts exactly the five final statuses as final', () => {
    expect([...FINAL_STATUSES].sort()).toEqual([...FINAL].sort());
    for (const status of MESSAGE_STATUSES) expect(isFinal(status)).toBe(FINAL.includes(status));
  });

  it('moves forward along queued → submitting → sent → unknown → a final status, never back', () => {
    const chain = [...ORDER, 'delivered' as const];
    for (let i = 0; i < chain.length; i++) {
      for (let j = 0; j < chain.length; j++) {
        expect(advances(chain[i]!, chain[j]!), `${chain[i]} → ${chain[j]}`).toBe(j > i);
      }
    }
  });

  it('lets every non-final status reach every final one, and no final one move again', () => {
    for (const from of ORDER) for (const to of FINAL) expect(advances(from, to), `${from} → ${to}`).toBe(true);
    for (const from of FINAL) {
      for (const to of MESSAGE_STATUSES) expect(advances(from, to), `${from} → ${to}`).toBe(false);
    }
  });
});

describe('combineParts (a long SMS settles when every part has its last word)', () => {
  const part = (status: MessageStatus | null, reason: string | null = null) => ({ status, reason });

  it('waits while any part has no status yet or is not settled', () => {
    expect(combineParts([part('delivered'), part(null)])).toBeUndefined();
    expect(combineParts([part('delivered'), part('sent')])).toBeUndefined();
    expect(combineParts([part('submitting'), part('failed', 'x')])).toBeUndefined();
    expect(combineParts([part('queued')])).toBeUndefined();
  });

  it('is delivered when every part was', () => {
    expect(combineParts([part('delivered'), part('delivered'), part('delivered')])).toEqual({
      status: 'delivered',
      reason: null,
    });
  });

  it('takes the first failed or expired part, with its reason, before any unknown one', () => {
    expect(
      combineParts([part('unknown', 'u'), part('delivered'), part('expired', 'late'), part('failed', 'no')]),
    ).toEqual({ status: 'expired', reason: 'late' });
    expect(combineParts([part('delivered'), part('failed', 'rejected'), part('unknown', 'u')])).toEqual({
      status: 'failed',
      reason: 'rejected',
    });
  });

  it('is unknown when the carrier could not tell for some part and none failed', () => {
    expect(combineParts([part('delivered'), part('unknown', 'bind lost')])).toEqual({
      status: 'unknown',
      reason: 'bind lost',
    });
  });
});
