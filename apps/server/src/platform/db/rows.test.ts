import { describe, expect, it } from 'vitest';
import { dateOf, isoOrNull } from './rows.ts';

describe('raw rows’ timestamps', () => {
  it('reads a timestamp as either driver answers it: a Date kept, its text parsed', () => {
    const at = new Date('2026-03-01T12:00:00.123Z');
    expect(dateOf(at)).toBe(at);
    expect(dateOf('2026-03-01 09:00:00.123-03').getTime()).toBe(at.getTime());
  });

  it('writes it as the API does, ISO 8601 in UTC; none is null', () => {
    expect(isoOrNull('2026-03-01 09:00:00.123-03')).toBe('2026-03-01T12:00:00.123Z');
    expect(isoOrNull(new Date('2026-03-01T12:00:00Z'))).toBe('2026-03-01T12:00:00.000Z');
    expect(isoOrNull(null)).toBeNull();
    expect(isoOrNull(undefined)).toBeNull();
  });
});
