import { describe, expect, it } from 'vitest';
import { timelineTick } from './times';

describe('the timeline axis', () => {
  // 12:34:56 UTC is 09:34:56 in São Paulo.
  const at = '2026-03-10T12:34:56.000Z';
  it('shows seconds for the buckets finer than a minute, so a campaign of seconds has distinct labels', () => {
    expect(timelineTick(at, 'second', 'pt-BR')).toBe('09:34:56');
    expect(timelineTick(at, '10s', 'pt-BR')).toBe('09:34:56');
    expect(timelineTick('2026-03-10T12:35:06.000Z', 'second', 'pt-BR')).not.toBe(timelineTick(at, 'second', 'pt-BR'));
  });
  it('shows hours and minutes for minutes and 10 minutes, the day and hour for hours', () => {
    expect(timelineTick(at, 'minute', 'pt-BR')).toBe('09:34');
    expect(timelineTick(at, '10min', 'en-US')).toBe('09:34');
    expect(timelineTick(at, 'hour', 'pt-BR')).toMatch(/^10,? 09$/);
  });
});
