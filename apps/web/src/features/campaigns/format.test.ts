import { describe, expect, it } from 'vitest';
import { canCancel, canPause, canResume, deliveryRate, progressPercent } from './format';

describe('campaign figures', () => {
  it('progress is done over total, capped, and 0 for an empty campaign', () => {
    expect(progressPercent({ done: 1, total: 3 })).toBe(33);
    expect(progressPercent({ done: 5, total: 4 })).toBe(100);
    expect(progressPercent({ done: 0, total: 0 })).toBe(0);
  });
  it('delivery rate counts what reached the carrier only', () => {
    expect(deliveryRate({ sent: 4, delivered: 3 })).toBe(0.75);
    expect(deliveryRate({ sent: 0, delivered: 0 })).toBeNull();
  });
  it('offers the moves each status allows', () => {
    expect([canPause('RUNNING'), canResume('RUNNING'), canCancel('RUNNING')]).toEqual([true, false, true]);
    expect([canPause('PAUSED'), canResume('PAUSED'), canCancel('PAUSED')]).toEqual([false, true, true]);
    expect([canPause('COMPLETED'), canResume('COMPLETED'), canCancel('COMPLETED')]).toEqual([false, false, false]);
  });
});
