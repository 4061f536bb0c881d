import type { Campaign, CampaignStatus, CampaignSummary } from '@ecoa/shared';

/** What decides how often a campaign's screens ask the server again. */
export type PollFacts = {
  status: CampaignStatus;
  waitingWindow: boolean;
  scheduledAt: string | null;
  finishedAt: string | null;
  /** Recipients still in flight or waiting for their carrier's receipt (`submitting` + `sent`). */
  awaiting: number;
};

/** Sending: the counts move every second. */
export const RUNNING_POLL_MS = 2_000;
/** Paused (another tab or an administrator may resume it), or running but outside its window. */
export const IDLE_POLL_MS = 60_000;
/** Ended with receipts still due: they trickle in over hours (an SMS waits for a phone that is off). */
export const RECEIPTS_POLL_MS = 30_000;
/**
 * Just after the end most receipts are seconds away (a carrier confirms a handset that is on
 * within a few seconds): the running pace goes on this long before it slows to RECEIPTS_POLL_MS.
 */
export const RECEIPTS_RUSH_MS = 60_000;
/** The longest a scheduled campaign's page sleeps before it looks again (a cancel from another tab). */
export const SCHEDULED_MAX_SLEEP_MS = 10 * 60_000;
/**
 * How long after the end a receipt can still come: SMSCs keep an SMS for its validity period,
 * commonly capped at a few days to a week (the server keeps early receipts as long, for the same
 * reason). Past it, a recipient still `sent` will never move.
 */
export const RECEIPT_WINDOW_MS = 7 * 24 * 3_600_000;

/**
 * How often to refetch a campaign's numbers, or false to stop: fast while it sends, until its
 * start when scheduled, slowly while paused or while receipts are still due after the end, never
 * for a draft or an ended campaign with nothing pending. One rule for every screen that shows one.
 */
export function campaignPollInterval(c: PollFacts, now = Date.now()): number | false {
  switch (c.status) {
    case 'DRAFT':
      return false;
    case 'RUNNING':
      return c.waitingWindow ? IDLE_POLL_MS : RUNNING_POLL_MS;
    case 'SCHEDULED': {
      const start = c.scheduledAt ? Date.parse(c.scheduledAt) : Number.NaN;
      if (Number.isNaN(start)) return IDLE_POLL_MS;
      // Wake just after the start (the server starts it within seconds), never sooner than a running pace.
      return Math.min(SCHEDULED_MAX_SLEEP_MS, Math.max(RUNNING_POLL_MS, start - now + 1_000));
    }
    case 'PAUSED':
      return IDLE_POLL_MS;
    default: {
      // COMPLETED, CANCELED, FAILED: only receipts can still change it.
      if (c.awaiting <= 0) return false;
      const ended = c.finishedAt ? Date.parse(c.finishedAt) : now;
      if (now - ended < RECEIPTS_RUSH_MS) return RUNNING_POLL_MS;
      return now - ended < RECEIPT_WINDOW_MS ? RECEIPTS_POLL_MS : false;
    }
  }
}

/** The soonest of several campaigns' intervals (a list, the dashboard); false when none moves. */
export function campaignsPollInterval(items: readonly PollFacts[], now = Date.now()): number | false {
  let soonest: number | false = false;
  for (const item of items) {
    const interval = campaignPollInterval(item, now);
    if (interval !== false && (soonest === false || interval < soonest)) soonest = interval;
  }
  return soonest;
}

/** A campaign's detail as poll facts. */
export const detailPollFacts = (c: Campaign): PollFacts => ({
  status: c.status,
  waitingWindow: c.waitingWindow,
  scheduledAt: c.scheduledAt,
  finishedAt: c.finishedAt,
  awaiting: c.counts.sent + c.counts.submitting,
});

/** A list item as poll facts. */
export const summaryPollFacts = (c: CampaignSummary): PollFacts => ({
  status: c.status,
  waitingWindow: c.waitingWindow,
  scheduledAt: c.scheduledAt,
  finishedAt: c.finishedAt,
  awaiting: c.awaiting,
});
