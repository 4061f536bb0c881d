import { sql } from 'drizzle-orm';
import type { Database } from '../../platform/db/client.ts';
import { rowsOf } from '../../platform/db/rows.ts';

/** The home page's reads of its own, each one query (the messages per day are the channels module's). */
export function createDashboardRepository(db: Database) {
  return {
    /**
     * Campaigns running, paused or scheduled (at most `limit`), and the most recent ones; the
     * sending API's batches are not campaigns to the user (their messages are in the chart).
     */
    async campaignIds(userId: string): Promise<{ running: string[]; recent: string[] }> {
      const running = await rowsOf<{ id: string }>(
        db.execute(sql`select id from campaigns where user_id = ${userId} and kind = 'campaign' and status in ('RUNNING', 'PAUSED', 'SCHEDULED')
          order by created_at desc limit 10`),
      );
      const recent = await rowsOf<{ id: string }>(
        db.execute(
          sql`select id from campaigns where user_id = ${userId} and kind = 'campaign' order by created_at desc limit 5`,
        ),
      );
      return { running: running.map((r) => r.id), recent: recent.map((r) => r.id) };
    },

    async steps(userId: string): Promise<{ hasList: boolean; hasCampaign: boolean; campaigns: number }> {
      const [row] = await rowsOf<{ has_list: boolean; campaigns: unknown }>(
        db.execute(sql`select
          exists (select 1 from contact_lists where user_id = ${userId} and status = 'ready') as has_list,
          (select count(*) from campaigns where user_id = ${userId} and kind = 'campaign' and status <> 'DRAFT') as campaigns`),
      );
      const campaigns = Number(row?.campaigns ?? 0);
      return { hasList: Boolean(row?.has_list), hasCampaign: campaigns > 0, campaigns };
    },
  };
}

export type DashboardRepository = ReturnType<typeof createDashboardRepository>;
