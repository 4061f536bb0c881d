/**
 * The user's messages, newest first, in keyset pages: the rows of `GET /api/v1/messages` as read
 * (`messages-list.ts` makes them the API's `MessageList`).
 */
import type { Channel, MessageStatus } from '@ecoa/shared';
import { sql } from 'drizzle-orm';
import type { Database } from '../../platform/db/client.ts';
import { rowsOf } from '../../platform/db/rows.ts';

/** What the page is filtered by (the cursor decoded: where the previous page ended). */
export type MessagesPageQuery = {
  status?: MessageStatus;
  channel?: Channel;
  externalId?: string;
  since?: Date;
  after?: { at: string; id: string };
  limit: number;
};

export type MessageListRow = {
  id: string;
  channel: Channel;
  to_phone: string;
  status: MessageStatus;
  reason: string | null;
  parts: number;
  external_id: string | null;
  campaign_id: string | null;
  created_at: Date | string;
  finished_at: Date | string | null;
  /** `created_at` as the database prints it (microseconds and offset): the keyset's exact value. */
  at: string;
};

export function createMessagesListRepository(db: Database) {
  return {
    /** Up to `limit` rows, newest first, after `after` when given. */
    async page(userId: string, q: MessagesPageQuery): Promise<MessageListRow[]> {
      const { after } = q;
      return rowsOf<MessageListRow>(
        db.execute(sql`
          select id, channel, to_phone, status, reason, parts, external_id,
            campaign_id, created_at, finished_at, created_at::text as at
          from messages
          where user_id = ${userId}
            ${q.status ? sql`and status = ${q.status}` : sql``}
            ${q.channel ? sql`and channel = ${q.channel}` : sql``}
            ${q.externalId ? sql`and external_id = ${q.externalId}` : sql``}
            ${q.since ? sql`and created_at >= ${q.since}` : sql``}
            ${after ? sql`and (created_at, id) < (${after.at}::timestamptz, ${after.id}::uuid)` : sql``}
          order by created_at desc, id desc
          limit ${q.limit}`),
      );
    },
  };
}

export type MessagesListRepository = ReturnType<typeof createMessagesListRepository>;
