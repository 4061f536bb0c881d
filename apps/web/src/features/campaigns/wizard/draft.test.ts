import { describe, expect, it } from 'vitest';
import {
  emptyDraft,
  saoPauloIso,
  scheduleProblem,
  startRequest,
  toRequest,
  toSaoPauloLocal,
  wizardDraftSchema,
} from './draft';

/** 1 December 2026, 09:00 in São Paulo. */
const NOW = Date.parse('2026-12-01T09:00:00-03:00');

describe('the wizard draft', () => {
  it('reads a typed date and time as São Paulo time, and back', () => {
    expect(saoPauloIso('2026-12-01T09:30')).toBe('2026-12-01T09:30:00-03:00');
    expect(saoPauloIso('')).toBeNull();
    expect(toSaoPauloLocal('2026-12-01T12:30:00.000Z')).toBe('2026-12-01T09:30');
  });

  it('sends only what the channel uses', () => {
    const d = { ...emptyDraft(), name: 'Voz', channel: 'voice_torpedo' as const, content: { text: 'x', tts: 'Olá' } };
    expect(toRequest(d).content).toEqual({ tts: 'Olá' });
    const ura = { ...emptyDraft(), channel: 'ura' as const, content: { menu: { audioId: 'a' } } };
    expect(toRequest(ura).content).toEqual({ menu: { audioId: 'a' }, options: ['1', '2'] });
    expect(toRequest({ ...emptyDraft(), when: 'later', scheduleAt: '2026-12-01T09:30' }, NOW).schedule).toBe(
      '2026-12-01T09:30:00-03:00',
    );
    expect(toRequest(emptyDraft())).toMatchObject({ name: 'Campanha', schedule: null, content: { text: '' } });
  });

  it("keeps an SMS or RCS text's tracked link, and drops it from a card or another channel", () => {
    const trackedLink = { url: 'https://loja.example/natal' };
    const sms = { ...emptyDraft(), content: { text: 'Veja {link}', trackedLink } };
    expect(toRequest(sms).content).toEqual({ text: 'Veja {link}', trackedLink });
    expect(toRequest({ ...sms, channel: 'rcs' }).content).toEqual({ text: 'Veja {link}', trackedLink });
    const card = { ...sms, channel: 'rcs' as const, content: { card: { title: 'Natal' }, trackedLink } };
    expect(toRequest(card).content).toEqual({ card: { title: 'Natal' } });
    expect(toRequest({ ...sms, channel: 'voice_torpedo' }).content).toEqual({ tts: '' });
  });

  it('schedules only a future date: an empty or past one is refused by the form and left out of a save', () => {
    const later = (scheduleAt: string) => ({ ...emptyDraft(), when: 'later' as const, scheduleAt });
    expect(scheduleProblem(later(''), NOW)).toBe('SCHEDULE_REQUIRED');
    expect(scheduleProblem(later('2026-12-01T09:00'), NOW)).toBe('SCHEDULE_IN_PAST');
    expect(scheduleProblem(later('2026-12-01T09:01'), NOW)).toBeNull();
    expect(scheduleProblem({ ...emptyDraft(), when: 'now' }, NOW)).toBeNull();
    expect('schedule' in toRequest(later(''), NOW)).toBe(false);
    expect('schedule' in toRequest(later('2020-01-06T10:00'), NOW)).toBe(false);
    expect(toRequest({ ...later('2026-12-01T09:30'), when: 'now' }, NOW).schedule).toBeNull();
  });

  it("the form's resolver schema puts a schedule's problem on the date field, by its code", () => {
    const issues = (draft: ReturnType<typeof emptyDraft>) =>
      wizardDraftSchema.safeParse(draft).error?.issues.map((i) => ({ path: i.path, message: i.message }));
    expect(issues({ ...emptyDraft(), when: 'later' })).toEqual([
      { path: ['scheduleAt'], message: 'SCHEDULE_REQUIRED' },
    ]);
    expect(issues({ ...emptyDraft(), when: 'later', scheduleAt: '2020-01-06T10:00' })).toEqual([
      { path: ['scheduleAt'], message: 'SCHEDULE_IN_PAST' },
    ]);
    expect(
      wizardDraftSchema.safeParse({ ...emptyDraft(), when: 'later', scheduleAt: '2999-01-06T10:00' }).success,
    ).toBe(true);
    expect(wizardDraftSchema.safeParse(emptyDraft()).success).toBe(true);
  });

  it('starts with what the user chose', () => {
    expect(startRequest({ ...emptyDraft(), when: 'now', scheduleAt: '2026-12-01T09:30' })).toEqual({ mode: 'now' });
    expect(startRequest({ ...emptyDraft(), when: 'later', scheduleAt: '2026-12-01T09:30' })).toEqual({
      mode: 'schedule',
      schedule: '2026-12-01T09:30:00-03:00',
    });
  });
});
