import { describe, expect, it } from 'vitest';
import type { SendingWindow } from '../schemas/campaigns.ts';
import { isInWindow, localTimeOf, nextWindowOpening } from './window.ts';

/** An instant given as São Paulo wall-clock time; São Paulo has been UTC−3 all year since 2019. */
const sp = (local: string) => new Date(`${local}-03:00`);
// 2026-03-02 is a Monday; 2026-03-07 a Saturday; 2026-03-08 a Sunday.
const WEEKDAYS: SendingWindow = { days: [1, 2, 3, 4, 5], start: '09:00', end: '21:00' };

describe('localTimeOf', () => {
  it('reads the São Paulo day of the week and minutes since midnight', () => {
    expect(localTimeOf(sp('2026-03-02T09:30:00'))).toEqual({ day: 1, minutes: 570 });
    expect(localTimeOf(sp('2026-03-08T23:59:59'))).toEqual({ day: 0, minutes: 1439 });
    expect(localTimeOf(sp('2026-03-07T00:00:00'))).toEqual({ day: 6, minutes: 0 });
  });

  it('names every day of the week (2026-03-01 is a Sunday)', () => {
    const days = [1, 2, 3, 4, 5, 6, 7].map((d) => localTimeOf(sp(`2026-03-0${d}T12:00:00`)).day);
    expect(days).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('reads another time zone when asked (UTC 02:00 on Monday is Sunday 23:00 in São Paulo)', () => {
    const at = new Date('2026-03-02T02:00:00Z');
    expect(localTimeOf(at, 'UTC')).toEqual({ day: 1, minutes: 120 });
    expect(localTimeOf(at)).toEqual({ day: 0, minutes: 1380 });
  });
});

describe('isInWindow', () => {
  it('is open from the start minute up to, not including, the end minute', () => {
    expect(isInWindow(WEEKDAYS, sp('2026-03-02T08:59:59'))).toBe(false);
    expect(isInWindow(WEEKDAYS, sp('2026-03-02T09:00:00'))).toBe(true);
    expect(isInWindow(WEEKDAYS, sp('2026-03-02T20:59:59'))).toBe(true);
    expect(isInWindow(WEEKDAYS, sp('2026-03-02T21:00:00'))).toBe(false);
  });

  it('is closed on a day the window leaves out, whatever the hour', () => {
    // Saturday and Sunday at 10:00, inside the hours but not among the days.
    expect(isInWindow(WEEKDAYS, sp('2026-03-07T10:00:00'))).toBe(false);
    expect(isInWindow(WEEKDAYS, sp('2026-03-08T10:00:00'))).toBe(false);
    expect(isInWindow({ ...WEEKDAYS, days: [0] }, sp('2026-03-08T10:00:00'))).toBe(true);
    expect(isInWindow({ ...WEEKDAYS, days: [0] }, sp('2026-03-02T10:00:00'))).toBe(false);
  });

  it('judges the day in São Paulo, not in UTC (Sunday 22:00 there is Monday 01:00 UTC)', () => {
    const all = { days: [0, 1, 2, 3, 4, 5, 6], start: '00:00', end: '23:59' };
    expect(isInWindow({ ...all, days: [0] }, sp('2026-03-08T22:00:00'))).toBe(true);
    expect(isInWindow({ ...all, days: [1] }, sp('2026-03-08T22:00:00'))).toBe(false);
  });
});

describe('nextWindowOpening', () => {
  it('is the moment itself when the window is open', () => {
    const at = sp('2026-03-02T10:15:42');
    expect(nextWindowOpening(WEEKDAYS, at)).toBe(at);
  });

  it('is the same day’s start before the window opens, to the minute', () => {
    expect(nextWindowOpening(WEEKDAYS, sp('2026-03-02T07:10:30'))).toEqual(sp('2026-03-02T09:00:00'));
    expect(nextWindowOpening(WEEKDAYS, sp('2026-03-02T00:00:00'))).toEqual(sp('2026-03-02T09:00:00'));
    expect(nextWindowOpening(WEEKDAYS, sp('2026-03-02T08:59:30'))).toEqual(sp('2026-03-02T09:00:00'));
  });

  it('is the next day’s start after the window closes', () => {
    expect(nextWindowOpening(WEEKDAYS, sp('2026-03-02T21:00:00'))).toEqual(sp('2026-03-03T09:00:00'));
    expect(nextWindowOpening(WEEKDAYS, sp('2026-03-02T23:59:59'))).toEqual(sp('2026-03-03T09:00:00'));
  });

  it('skips the days the window leaves out (Friday night → Monday morning)', () => {
    expect(nextWindowOpening(WEEKDAYS, sp('2026-03-06T21:30:00'))).toEqual(sp('2026-03-09T09:00:00'));
    expect(nextWindowOpening(WEEKDAYS, sp('2026-03-08T12:00:00'))).toEqual(sp('2026-03-09T09:00:00'));
    // Only Sundays: a whole week ahead from a Sunday evening.
    const sundays = { ...WEEKDAYS, days: [0] };
    expect(nextWindowOpening(sundays, sp('2026-03-08T21:00:00'))).toEqual(sp('2026-03-15T09:00:00'));
  });

  it('gives the moment back when the window never opens', () => {
    const at = sp('2026-03-02T10:00:00');
    expect(nextWindowOpening({ ...WEEKDAYS, days: [] }, at)).toBe(at);
  });

  it('corrects for an offset change on the way (São Paulo’s last daylight saving began 2018-11-04)', () => {
    // Saturday 2018-11-03 22:00 at UTC−3; Sunday 09:00 was at UTC−2, i.e. 11:00 UTC.
    const every = { days: [0, 1, 2, 3, 4, 5, 6], start: '09:00', end: '21:00' };
    expect(nextWindowOpening(every, new Date('2018-11-03T22:00:00-03:00'))).toEqual(new Date('2018-11-04T11:00:00Z'));
  });

  it('never answers a moment before the one asked about', () => {
    // A one-minute window just closed: its opening a few seconds ago is in the past, so the answer is "now".
    const oneMinute = { days: [1], start: '09:00', end: '09:01' };
    const at = sp('2026-03-02T09:01:00');
    expect(nextWindowOpening(oneMinute, at)).toBe(at);
    expect(nextWindowOpening(oneMinute, sp('2026-03-02T09:02:00'))).toEqual(sp('2026-03-09T09:00:00'));
  });
});
