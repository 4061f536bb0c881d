/**
 * Messages counted without counting `messages` (issue 24): the triggers of migration 0026 keep
 * `message_tallies` (per campaign, user, channel, São Paulo day, status, submitted, reason) and
 * `campaign_timeline_tallies` (a campaign's sends and outcomes per second) in the transactions that
 * move the rows, whatever code moves them. A campaign screen or the home page sums a few rows per
 * key instead of scanning a campaign's recipients on every poll. Rows of differences pile up as a
 * campaign runs (a few per batch); a read that meets more than FOLD_AFTER_EXTRA of them beyond one
 * per key folds them, and the hourly housekeeping folds everything. The SQL is
 * `message-tallies.repository.ts`'s; `differences` is the check that recounts and compares.
 */
import {
  CAMPAIGN_COUNT_KEY,
  CAMPAIGN_TIME_ZONE,
  type CampaignCounts,
  type Channel,
  type MessageStatus,
} from '@ecoa/shared';
import type { DbOrTx } from '../../platform/db/client.ts';
import type { MessageTalliesRepository } from './message-tallies.repository.ts';

/** A campaign's recipients as the screens count them. */
export type CampaignTally = {
  counts: CampaignCounts;
  /** Recipients whose submit was stored (`submitted_at` set), whatever came after. */
  submitted: number;
  /** Why recipients failed, expired or are unknown, most frequent first. */
  reasons: { reason: string; count: number }[];
};

/** One day (São Paulo) and channel of a user's messages. */
export type MessagesOnDay = { day: string; channel: Channel; sent: number; delivered: number };

export type TimelinePoint = { at: Date; sent: number; delivered: number; failed: number };

/** Past this many rows of differences beyond one per key in what a read summed, it folds them. */
const FOLD_AFTER_EXTRA = 200;
const REASON_STATUSES: MessageStatus[] = ['failed', 'expired', 'unknown'];

function emptyCounts(): CampaignCounts {
  return {
    queued: 0,
    submitting: 0,
    sent: 0,
    delivered: 0,
    failed: 0,
    expired: 0,
    unknown: 0,
    optedOut: 0,
    canceled: 0,
  };
}

const DAY = new Intl.DateTimeFormat('en-CA', {
  timeZone: CAMPAIGN_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

export function createMessageTallies(repository: MessageTalliesRepository) {
  return {
    /**
     * Each campaign's tally (campaigns without messages get empty ones). Inside a transaction
     * (`tx`) it only reads: folding is left to reads outside one.
     */
    async campaigns(campaignIds: string[], tx?: DbOrTx): Promise<Map<string, CampaignTally>> {
      const rows = await repository.byCampaign(campaignIds, tx);
      const tallies = new Map<string, CampaignTally>(
        campaignIds.map((id) => [id, { counts: emptyCounts(), submitted: 0, reasons: [] }]),
      );
      const extra = new Map<string, number>();
      const reasons = new Map<string, Map<string, number>>();
      for (const r of rows) {
        const tally = tallies.get(r.campaign_id);
        if (!tally) continue;
        const n = Number(r.n);
        tally.counts[CAMPAIGN_COUNT_KEY[r.status]] += n;
        if (r.submitted) tally.submitted += n;
        if (r.reason !== null && REASON_STATUSES.includes(r.status) && n !== 0) {
          const byReason = reasons.get(r.campaign_id) ?? new Map<string, number>();
          byReason.set(r.reason, (byReason.get(r.reason) ?? 0) + n);
          reasons.set(r.campaign_id, byReason);
        }
        extra.set(r.campaign_id, (extra.get(r.campaign_id) ?? 0) + Number(r.extra));
      }
      for (const [id, byReason] of reasons) {
        tallies.get(id)!.reasons = [...byReason]
          .filter(([, count]) => count > 0)
          .map(([reason, count]) => ({ reason, count }))
          .sort((a, b) => b.count - a.count || (a.reason < b.reason ? -1 : 1))
          .slice(0, 20);
      }
      const toFold = [...extra].filter(([, p]) => p > FOLD_AFTER_EXTRA).map(([id]) => id);
      if (!tx && toFold.length > 0) await repository.foldCampaigns(toFold);
      return tallies;
    },

    /** The user's messages sent and delivered per day (São Paulo) and channel, from the day of `since` on. */
    async perDay(userId: string, since: Date): Promise<MessagesOnDay[]> {
      const rows = await repository.perDay(userId, DAY.format(since));
      if (rows.reduce((sum, r) => sum + Number(r.extra), 0) > FOLD_AFTER_EXTRA) await repository.foldUser(userId);
      return rows
        .map((r) => ({ day: r.day, channel: r.channel, sent: Number(r.sent), delivered: Number(r.delivered) }))
        .filter((r) => r.sent > 0 || r.delivered > 0);
    },

    /** A campaign's sends and outcomes per bucket of `interval` (a PostgreSQL interval), empty buckets absent. */
    async timeline(campaignId: string, interval: string): Promise<TimelinePoint[]> {
      const rows = await repository.timeline(campaignId, interval);
      if (rows.reduce((sum, r) => sum + Number(r.extra), 0) > FOLD_AFTER_EXTRA)
        await repository.foldCampaigns([campaignId]);
      return rows
        .map((r) => ({
          at: new Date(r.at),
          sent: Number(r.sent),
          delivered: Number(r.delivered),
          failed: Number(r.failed),
        }))
        .filter((p) => p.sent > 0 || p.delivered > 0 || p.failed > 0);
    },

    /** Every row of differences folded (the hourly housekeeping). */
    foldAll: (): Promise<void> => repository.foldAll(),

    /** The check: where the tallies and a recount of the campaign's messages disagree (none when they agree). */
    differences: (campaignId: string) => repository.differences(campaignId),
  };
}

export type MessageTallies = ReturnType<typeof createMessageTallies>;
