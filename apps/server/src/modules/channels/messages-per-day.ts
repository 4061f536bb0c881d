import { CAMPAIGN_TIME_ZONE, type Channel } from '@ecoa/shared';
import { sql } from 'drizzle-orm';
import type { Database } from '../../platform/db/client.ts';
import { rowsOf } from '../../platform/db/rows.ts';

export type MessagesOnDay = { day: string; channel: Channel; sent: number; delivered: number };

/** The user's messages per day, read for other modules (the dashboard) by the module that owns them (ADR 018). */
export function createMessagesPerDay(db: Database) {
  return {
    /** Messages sent and delivered per day (São Paulo) and channel since `since` (campaigns and test sends). */
    async since(userId: string, since: Date): Promise<MessagesOnDay[]> {
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
  };
}
