import type { ReplyChannel } from '@ecoa/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../platform/db/client.ts';
import { dateOf, rowsOf } from '../../platform/db/rows.ts';

/** One reply as the inbox shows it: the message, its campaign's name and the number's name in the user's lists. */
export type ReplyRow = {
  id: string;
  phone: string;
  channel: ReplyChannel;
  text: string;
  receivedAt: Date;
  optOut: boolean;
  handledAt: Date | null;
  messageId: string | null;
  campaignId: string | null;
  campaignName: string | null;
  /** `api`: the message it answers was sent through the sending API (its batch is a hidden campaign row). */
  campaignKind: 'campaign' | 'api' | null;
  /** The answered message's `externalId` (sending API), if it had one. */
  externalId: string | null;
  contactName: string | null;
};

export type RepliesFilterRows = {
  campaignId?: string;
  channel?: ReplyChannel;
  from?: Date;
  to?: Date;
  handled?: boolean;
};

/** Where a page starts: after this reply in the inbox's order (newest first). */
export type ReplyKey = { receivedAt: Date; id: string };

type RawReply = {
  id: string;
  from_phone: string;
  channel: ReplyChannel;
  text: string;
  received_at: Date | string;
  opted_out: boolean;
  handled_at: Date | string | null;
  message_id: string | null;
  campaign_id: string | null;
  campaign_name: string | null;
  campaign_kind: 'campaign' | 'api' | null;
  external_id: string | null;
  contact_name: string | null;
};

function toRow(r: RawReply): ReplyRow {
  return {
    id: r.id,
    phone: r.from_phone,
    channel: r.channel,
    text: r.text,
    receivedAt: dateOf(r.received_at),
    optOut: r.opted_out,
    handledAt: r.handled_at === null ? null : dateOf(r.handled_at),
    messageId: r.message_id,
    campaignId: r.campaign_id,
    campaignName: r.campaign_name,
    campaignKind: r.campaign_kind,
    externalId: r.external_id,
    contactName: r.contact_name,
  };
}

/**
 * The replies inbox's reads and its one write (handled or not), over `inbound_messages`, which
 * the channels module owns (ADR 018); the replies module reads through this. One statement per
 * page: the campaign's name and the contact's name (its most recent list that names the number)
 * joined in.
 */
export function createRepliesRepository(db: Database) {
  const select = (userId: string, where: SQL[], tail: SQL) =>
    rowsOf<RawReply>(
      db.execute(sql`
        select i.id, i.from_phone, i.channel, i.text, i.received_at, i.opted_out, i.handled_at,
          i.message_id, i.campaign_id, c.name as campaign_name, c.kind as campaign_kind, m.external_id,
          (select ct.name from contacts ct join contact_lists l on l.id = ct.list_id
            where l.user_id = i.user_id and ct.phone = i.from_phone and coalesce(ct.name, '') <> ''
            order by l.created_at desc limit 1) as contact_name
        from inbound_messages i
        left join campaigns c on c.id = i.campaign_id
        left join messages m on m.id = i.message_id
        where i.user_id = ${userId} ${sql.join(
          where.map((w) => sql` and ${w}`),
          sql``,
        )}
        ${tail}`),
    );

  return {
    /** A page of the user's replies, newest first, after `after`. */
    async page(userId: string, filter: RepliesFilterRows, after: ReplyKey | undefined, limit: number) {
      const where: SQL[] = [];
      if (filter.campaignId) where.push(sql`i.campaign_id = ${filter.campaignId}`);
      if (filter.channel) where.push(sql`i.channel = ${filter.channel}`);
      if (filter.from) where.push(sql`i.received_at >= ${filter.from}`);
      if (filter.to) where.push(sql`i.received_at < ${filter.to}`);
      if (filter.handled === true) where.push(sql`i.handled_at is not null`);
      if (filter.handled === false) where.push(sql`i.handled_at is null`);
      if (after) where.push(sql`(i.received_at, i.id) < (${after.receivedAt}::timestamptz, ${after.id}::uuid)`);
      const rows = await select(userId, where, sql`order by i.received_at desc, i.id desc limit ${limit}`);
      return rows.map(toRow);
    },

    async findOwned(userId: string, id: string): Promise<ReplyRow | undefined> {
      const [row] = await select(userId, [sql`i.id = ${id}`], sql``);
      return row ? toRow(row) : undefined;
    },

    /** Marks the user's reply handled at `at` (kept if it already was), or not handled; false when it is not theirs. */
    async setHandled(userId: string, id: string, at: Date | null): Promise<boolean> {
      const rows = await rowsOf<{ id: string }>(
        db.execute(sql`
          update inbound_messages
          set handled_at = case when ${at}::timestamptz is null then null else coalesce(handled_at, ${at}::timestamptz) end
          where id = ${id} and user_id = ${userId} returning id`),
      );
      return rows.length > 0;
    },
  };
}

export type RepliesRepository = ReturnType<typeof createRepliesRepository>;
