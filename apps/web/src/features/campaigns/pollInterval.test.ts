import { describe, expect, it } from 'vitest';
import {
  campaignPollInterval,
  campaignsPollInterval,
  IDLE_POLL_MS,
  type PollFacts,
  RECEIPTS_POLL_MS,
  RUNNING_POLL_MS,
  SCHEDULED_MAX_SLEEP_MS,
} from './pollInterval';

const now = Date.parse('2026-11-24T12:00:00Z');
const at = (minutesFromNow: number) => new Date(now + minutesFromNow * 60_000).toISOString();
const facts = (over: Partial<PollFacts>): PollFacts => ({
  status: 'RUNNING',
  waitingWindow: false,
  scheduledAt: null,
  finishedAt: null,
  awaiting: 0,
  ...over,
});

describe('campaignPollInterval', () => {
  it('polls fast while it sends, slowly while it waits for its window', () => {
    expect(campaignPollInterval(facts({ status: 'RUNNING' }), now)).toBe(RUNNING_POLL_MS);
    expect(campaignPollInterval(facts({ status: 'RUNNING', waitingWindow: true }), now)).toBe(IDLE_POLL_MS);
  });

  it('sleeps a scheduled campaign until just after its start, at most ten minutes at a time', () => {
    expect(campaignPollInterval(facts({ status: 'SCHEDULED', scheduledAt: at(3) }), now)).toBe(3 * 60_000 + 1_000);
    expect(campaignPollInterval(facts({ status: 'SCHEDULED', scheduledAt: at(120) }), now)).toBe(
      SCHEDULED_MAX_SLEEP_MS,
    );
    // Its start has come: the server starts it within seconds, watch it at a running pace.
    expect(campaignPollInterval(facts({ status: 'SCHEDULED', scheduledAt: at(-1) }), now)).toBe(RUNNING_POLL_MS);
  });

  it('looks at a paused campaign once a minute only', () => {
    expect(campaignPollInterval(facts({ status: 'PAUSED', awaiting: 0 }), now)).toBe(IDLE_POLL_MS);
    expect(campaignPollInterval(facts({ status: 'PAUSED', awaiting: 3 }), now)).toBe(IDLE_POLL_MS);
  });

  it('after the end, polls at the running pace for a minute, then slowly while receipts are due within their validity, then stops', () => {
    for (const status of ['COMPLETED', 'CANCELED', 'FAILED'] as const) {
      // In its first minute most receipts are seconds away: still the running pace.
      expect(campaignPollInterval(facts({ status, finishedAt: at(-0.2), awaiting: 2 }), now)).toBe(RUNNING_POLL_MS);
      expect(campaignPollInterval(facts({ status, finishedAt: at(-1), awaiting: 2 }), now)).toBe(RECEIPTS_POLL_MS);
      // Hours later (an SMS waiting for a phone that was off) it still looks.
      expect(campaignPollInterval(facts({ status, finishedAt: at(-6 * 60), awaiting: 2 }), now)).toBe(RECEIPTS_POLL_MS);
      expect(campaignPollInterval(facts({ status, finishedAt: at(-8 * 24 * 60), awaiting: 2 }), now)).toBe(false);
      expect(campaignPollInterval(facts({ status, finishedAt: at(-1), awaiting: 0 }), now)).toBe(false);
    }
  });

  it('never polls a draft', () => {
    expect(campaignPollInterval(facts({ status: 'DRAFT' }), now)).toBe(false);
  });

  it('a page of campaigns polls at its liveliest one, and not at all when none moves', () => {
    const done = facts({ status: 'COMPLETED', finishedAt: at(-5) });
    expect(campaignsPollInterval([done, facts({ status: 'PAUSED' })], now)).toBe(IDLE_POLL_MS);
    expect(campaignsPollInterval([facts({ status: 'PAUSED' }), facts({ status: 'RUNNING' })], now)).toBe(
      RUNNING_POLL_MS,
    );
    expect(campaignsPollInterval([done, facts({ status: 'DRAFT' })], now)).toBe(false);
    expect(campaignsPollInterval([], now)).toBe(false);
  });
});
