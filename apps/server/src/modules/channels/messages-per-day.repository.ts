/**
 * The user's messages per day and channel, as read (`messages-per-day.ts` makes them
 * `MessagesOnDay`s for the dashboard, ADR 018).
 */
import { CAMPAIGN_TIME_ZONE, type Channel } from '@ecoa/shared';
import { sql } from 'drizzle-orm';
import type { Database } from '../../platform/db/client.ts';
import { rowsOf } from '../../platform/db/rows.ts';

/** One day (São Paulo) and channel; the counts as the driver returns them (bigint: a string or a number). */
export type MessagesOnDayRow = { day: string; channel: Channel; sent: unknown; delivered: unknown };

export function createMessagesPerDayRepository(db: Database) {
  return {
    /** Messages sent and delivered per day (São Paulo) and channel since `since`, in one grouped query. */
    async since(userId: string, since: Date): Promise<MessagesOnDayRow[]> {
      return rowsOf<MessagesOnDayRow>(
        db.execute(sql`
          select to_char(created_at at time zone ${CAMPAIGN_TIME_ZONE}, 'YYYY-MM-DD') as day, channel,
            count(*) filter (where submitted_at is not null) as sent,
            count(*) filter (where status = 'delivered') as delivered
          from messages where user_id = ${userId} and created_at >= ${since}
          group by 1, 2 order by 1, 2`),
      );
    },
  };
}

export type MessagesPerDayRepository = ReturnType<typeof createMessagesPerDayRepository>;
