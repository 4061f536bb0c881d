import { CAMPAIGN_TIME_ZONE, type Channel } from '@ecoa/shared';
import { sql } from 'drizzle-orm';
import type { Database } from '../../platform/db/client.ts';
import { rowsOf } from '../../platform/db/rows.ts';

/** The home page's reads, each one query. */
export function createDashboardRepository(db: Database) {
  return {
    /** Campaigns running, paused or scheduled (at most `limit`), and the most recent ones. */
    async campaignIds(userId: string): Promise<{ running: string[]; recent: string[] }> {
      const running = await rowsOf<{ id: string }>(
        db.execute(sql`select id from campaigns where user_id = ${userId} and status in ('RUNNING', 'PAUSED', 'SCHEDULED')
          order by created_at desc limit 10`),
      );
      const recent = await rowsOf<{ id: string }>(
        db.execute(sql`select id from campaigns where user_id = ${userId} order by created_at desc limit 5`),
      );
      return { running: running.map((r) => r.id), recent: recent.map((r) => r.id) };
    },

    /** Messages sent and delivered per day (São Paulo) and channel since `since` (campaigns and test sends). */
    async daily(
      userId: string,
      since: Date,
    ): Promise<{ day: string; channel: Channel; sent: number; delivered: number }[]> {
      const rows = await rowsOf<{ day: string; channel: Channel; sent: unknown; delivered: unknown }>(
        db.execute(sql`
          select to_char(created_at at time zone ${CAMPAIGN_TIME_ZONE}, 'YYYY-MM-DD') as day, channel,
            count(*) filter (where submitted_at is not null) as sent,
            count(*) filter (where status = 'delivered') as delivered
          from messages where user_id = ${userId} and created_at >= ${since}
          group by 1, 2 order by 1, 2`),
      );
      return rows
        .map((r) => ({ day: r.day, channel: r.channel, sent: Number(r.sent), delivered: Number(r.delivered) }))
        .filter((r) => r.sent > 0 || r.delivered > 0);
    },

    async steps(userId: string): Promise<{ hasList: boolean; hasCampaign: boolean; campaigns: number }> {
      const [row] = await rowsOf<{ has_list: boolean; campaigns: unknown }>(
        db.execute(sql`select
          exists (select 1 from contact_lists where user_id = ${userId} and status = 'ready') as has_list,
          (select count(*) from campaigns where user_id = ${userId} and status <> 'DRAFT') as campaigns`),
      );
      const campaigns = Number(row?.campaigns ?? 0);
      return { hasList: Boolean(row?.has_list), hasCampaign: campaigns > 0, campaigns };
    },
  };
}

export type DashboardRepository = ReturnType<typeof createDashboardRepository>;
