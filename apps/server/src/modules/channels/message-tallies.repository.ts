/**
 * The SQL of the message tallies (`message-tallies.ts` decides when to fold): the triggers of
 * migration 0026 add rows of differences to `message_tallies` and `campaign_timeline_tallies` per
 * statement that moves messages; these read their sums, fold them together, and recount
 * `messages` itself for the check that compares the two.
 */
import { CAMPAIGN_TIME_ZONE, type Channel, type MessageStatus } from '@ecoa/shared';
import { type SQL, sql } from 'drizzle-orm';
import { pgArray } from '../../platform/db/array-literal.ts';
import type { Database, DbOrTx } from '../../platform/db/client.ts';
import { rowsOf } from '../../platform/db/rows.ts';

/**
 * One key of a campaign's tallies, summed. `extra` (here and below) counts the rows of differences
 * beyond one per key: what a fold would remove.
 */
export type CampaignTallyRow = {
  campaign_id: string;
  status: MessageStatus;
  submitted: boolean;
  reason: string | null;
  n: unknown;
  extra: unknown;
};

/** One day (São Paulo) and channel of a user's messages; the counts as the driver returns them. */
export type DayTallyRow = { day: string; channel: Channel; sent: unknown; delivered: unknown; extra: unknown };

/** One bucket of a campaign's timeline. */
export type TimelineTallyRow = {
  at: Date | string;
  sent: unknown;
  delivered: unknown;
  failed: unknown;
  extra: unknown;
};

/** Where the timeline's buckets start counting (whole hours of UTC are whole hours in São Paulo). */
const EPOCH = '2000-01-01T00:00:00Z';

export function createMessageTalliesRepository(db: Database) {
  /** The rows of `message_tallies` that `which` selects, taken out and put back summed per key. */
  const foldTallies = async (which: SQL): Promise<void> => {
    await db.execute(sql`
      with gone as (delete from message_tallies ${which} returning *)
      insert into message_tallies (user_id, campaign_id, channel, day, status, submitted, reason, n)
      select user_id, campaign_id, channel, day, status, submitted, reason, sum(n) from gone
      group by 1, 2, 3, 4, 5, 6, 7 having sum(n) <> 0`);
  };
  /** The same for `campaign_timeline_tallies`. */
  const foldTimeline = async (which: SQL): Promise<void> => {
    await db.execute(sql`
      with gone as (delete from campaign_timeline_tallies ${which} returning *)
      insert into campaign_timeline_tallies (campaign_id, at, sent, delivered, failed)
      select campaign_id, at, sum(sent), sum(delivered), sum(failed) from gone
      group by 1, 2 having sum(sent) <> 0 or sum(delivered) <> 0 or sum(failed) <> 0`);
  };

  return {
    /** The campaigns' tallies per (status, submitted, reason), in one statement. */
    async byCampaign(campaignIds: string[], tx: DbOrTx = db): Promise<CampaignTallyRow[]> {
      if (campaignIds.length === 0) return [];
      return rowsOf<CampaignTallyRow>(
        tx.execute(sql`
          select campaign_id, status, submitted, reason, sum(n) as n, count(*) - count(distinct day) as extra
          from message_tallies where campaign_id = any(${pgArray(campaignIds)}::uuid[])
          group by campaign_id, status, submitted, reason`),
      );
    },

    /** A user's messages sent and delivered per day (São Paulo) and channel from `sinceDay` on. */
    async perDay(userId: string, sinceDay: string): Promise<DayTallyRow[]> {
      return rowsOf<DayTallyRow>(
        db.execute(sql`
          select to_char(day, 'YYYY-MM-DD') as day, channel,
            coalesce(sum(n) filter (where submitted), 0) as sent,
            coalesce(sum(n) filter (where status = 'delivered'), 0) as delivered,
            count(*) - count(distinct (campaign_id, status, submitted, reason)) as extra
          from message_tallies where user_id = ${userId} and day >= ${sinceDay}::date
          group by day, channel order by day, channel`),
      );
    },

    /** A campaign's sends and outcomes per bucket of `interval` (a PostgreSQL interval, e.g. '10 seconds'). */
    async timeline(campaignId: string, interval: string): Promise<TimelineTallyRow[]> {
      return rowsOf<TimelineTallyRow>(
        db.execute(sql`
          select date_bin(${interval}::interval, at, ${EPOCH}::timestamptz) as at,
            sum(sent) as sent, sum(delivered) as delivered, sum(failed) as failed, count(*) - count(distinct at) as extra
          from campaign_timeline_tallies where campaign_id = ${campaignId}
          group by 1 order by 1`),
      );
    },

    /** The campaigns' rows of differences summed into one per key, in both tables. */
    async foldCampaigns(campaignIds: string[]): Promise<void> {
      const which = sql`where campaign_id = any(${pgArray(campaignIds)}::uuid[])`;
      await foldTallies(which);
      await foldTimeline(which);
    },

    /** A user's rows of differences (of every campaign, and of no campaign) summed into one per key. */
    foldUser: (userId: string): Promise<void> => foldTallies(sql`where user_id = ${userId}`),

    /** Every row of differences summed into one per key (the hourly housekeeping). */
    async foldAll(): Promise<void> {
      await foldTallies(sql``);
      await foldTimeline(sql``);
    },

    /**
     * The check: a campaign's messages counted per (status, submitted, reason) and per second,
     * and the tallies summed the same way, side by side: every key where they differ.
     */
    async differences(campaignId: string): Promise<{ key: string; counted: unknown; tallied: unknown }[]> {
      return rowsOf(
        db.execute(sql`
          with counted as (
            select concat_ws('/', status, submitted_at is not null, coalesce(reason, '-'),
                   to_char(created_at at time zone ${CAMPAIGN_TIME_ZONE}, 'YYYY-MM-DD')) as key, count(*) as n
            from messages where campaign_id = ${campaignId} group by 1
            union all
            select concat_ws('/', 'sent-at', date_bin('1 second', submitted_at, ${EPOCH}::timestamptz)), count(*)
            from messages where campaign_id = ${campaignId} and submitted_at is not null group by 1
            union all
            select concat_ws('/', case when status = 'delivered' then 'delivered' else 'failed+expired' end, 'at', date_bin('1 second', finished_at, ${EPOCH}::timestamptz)), count(*)
            from messages where campaign_id = ${campaignId} and finished_at is not null
              and status in ('delivered', 'failed', 'expired') group by 1),
          tallied as (
            select concat_ws('/', status, submitted, coalesce(reason, '-'), to_char(day, 'YYYY-MM-DD')) as key, sum(n) as n
            from message_tallies where campaign_id = ${campaignId} group by 1
            union all
            select concat_ws('/', 'sent-at', at), sum(sent) from campaign_timeline_tallies
            where campaign_id = ${campaignId} group by at
            union all
            select concat_ws('/', 'delivered', 'at', at), sum(delivered) from campaign_timeline_tallies
            where campaign_id = ${campaignId} group by at
            union all
            select concat_ws('/', 'failed+expired', 'at', at), sum(failed) from campaign_timeline_tallies
            where campaign_id = ${campaignId} group by at)
          select key, coalesce(c.n, 0) as counted, coalesce(t.n, 0) as tallied
          from (select key, sum(n) as n from counted group by key) c
          full join (select key, sum(n) as n from tallied group by key) t using (key)
          where coalesce(c.n, 0) <> coalesce(t.n, 0)
          order by key`),
      );
    },
  };
}

export type MessageTalliesRepository = ReturnType<typeof createMessageTalliesRepository>;
