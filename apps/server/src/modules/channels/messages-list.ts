import type { Channel, MessageList, MessageListItem, MessageStatus } from '@ecoa/shared';
import { sql } from 'drizzle-orm';
import type { Database } from '../../platform/db/client.ts';
import { rowsOf } from '../../platform/db/rows.ts';
import { AppError } from '../../platform/errors/app-error.ts';

export type MessageListFilter = {
  status?: MessageStatus;
  channel?: Channel;
  externalId?: string;
  since?: Date;
  cursor?: string;
  limit: number;
};

type Row = {
  id: string;
  channel: Channel;
  toPhone: string;
  status: MessageStatus;
  reason: string | null;
  parts: number;
  externalId: string | null;
  campaignId: string | null;
  createdAt: Date | string;
  finishedAt: Date | string | null;
  /** `created_at` as the database prints it (microseconds and offset): the keyset's exact value. */
  at: string;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The opaque cursor: where the previous page ended, `(created_at, id)`. */
function encodeCursor(at: string, id: string): string {
  return Buffer.from(JSON.stringify([at, id])).toString('base64url');
}

function decodeCursor(cursor: string): { at: string; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof at === 'string' && typeof id === 'string' && UUID.test(id) && !Number.isNaN(Date.parse(at)))
      return { at, id };
  } catch {
    // Not ours: refused below.
  }
  throw new AppError('INVALID_CURSOR');
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/**
 * The user's messages, newest first, in keyset pages (`GET /api/v1/messages`): the sending API's,
 * the campaigns' recipients and the test sends alike, read by the module that owns them (ADR 018).
 */
export function createMessagesList(db: Database) {
  return {
    async page(userId: string, f: MessageListFilter): Promise<MessageList> {
      const after = f.cursor ? decodeCursor(f.cursor) : undefined;
      const rows = await rowsOf<Row>(
        db.execute(sql`
          select id, channel, to_phone as "toPhone", status, reason, parts, external_id as "externalId",
            campaign_id as "campaignId", created_at as "createdAt", finished_at as "finishedAt", created_at::text as at
          from messages
          where user_id = ${userId}
            ${f.status ? sql`and status = ${f.status}` : sql``}
            ${f.channel ? sql`and channel = ${f.channel}` : sql``}
            ${f.externalId ? sql`and external_id = ${f.externalId}` : sql``}
            ${f.since ? sql`and created_at >= ${f.since}` : sql``}
            ${after ? sql`and (created_at, id) < (${after.at}::timestamptz, ${after.id}::uuid)` : sql``}
          order by created_at desc, id desc
          limit ${f.limit + 1}`),
      );
      const page = rows.slice(0, f.limit);
      const last = page[page.length - 1];
      return {
        items: page.map(
          (r): MessageListItem => ({
            id: r.id,
            channel: r.channel,
            to: r.toPhone,
            status: r.status,
            reason: r.reason,
            parts: Number(r.parts),
            externalId: r.externalId,
            batchId: r.campaignId,
            createdAt: iso(r.createdAt)!,
            finishedAt: iso(r.finishedAt),
          }),
        ),
        nextCursor: rows.length > f.limit && last ? encodeCursor(last.at, last.id) : null,
      };
    },
  };
}

export type MessagesList = ReturnType<typeof createMessagesList>;
