/**
 * A campaign's recipients in the database: who the lists give (the audience), the start's
 * snapshot, the dispatchers' claims, and what became of them (URA answers, clicks; the counts per status and reason are the channels
 * module's tallies).
 * Part of the campaigns repository (spread into it), kept apart to stay readable.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { pgArray } from '../../platform/db/array-literal.ts';
import type { Database, DbOrTx } from '../../platform/db/client.ts';
import { rowsOf } from '../../platform/db/rows.ts';
import type { OutboundContent } from '../channels/index.ts';
import { contactLists } from '../lists/index.ts';
import type { CampaignRow } from './campaigns.schema.ts';

/** A contact that would receive the campaign (deduplicated across lists, opt-outs and landlines left out). */
export type Recipient = { phone: string; name: string | null; fields: Record<string, string> | null };

/** What the start's snapshot writes for one recipient. */
export type RecipientRow = {
  phone: string;
  name: string | null;
  parts: number;
  content: OutboundContent;
  /** The tracked link's code, when the text has `{link}`. */
  shortCode?: string | null;
};

/** A recipient a dispatcher claimed (now `submitting`). */
export type ClaimedRecipient = { id: string; toPhone: string; parts: number; content: OutboundContent };

export type AudienceCounts = { rows: number; phones: number; optedOut: number; landlines: number };

/**
 * The snapshot's message ids: UUIDv7-shaped (RFC 9562: the millisecond, version 7, variant,
 * random bits) with the statement's rows numbered in the last 48 bits from a random start, so one
 * start's rows get ascending ids. Random ids (`gen_random_uuid()`) land all over the primary key's
 * index: at 1,000,000 recipients the insert took 16.5–18.6 s of PostgreSQL CPU with them and
 * 10.2–10.5 s with ascending ones (load 5). `ids` is one row per statement (`ID_PARTS`); `n`, the
 * row's number in it.
 */
const ID_PARTS = sql`select lpad(to_hex((extract(epoch from clock_timestamp()) * 1000)::bigint), 12, '0') as ts,
  substr(md5(random()::text), 1, 3) as r1,
  substr('89ab', 1 + floor(random() * 4)::int, 1) || substr(md5(random()::text), 1, 3) as r2,
  floor(random() * 140737488355328)::bigint as base`;
const idFrom = (n: ReturnType<typeof sql>) =>
  sql`(substr(ids.ts, 1, 8) || '-' || substr(ids.ts, 9, 4) || '-7' || ids.r1 || '-' || ids.r2 || '-' || lpad(to_hex(ids.base + ${n}), 12, '0'))::uuid`;

export function createRecipientQueries(db: Database) {
  /** The eligible contacts of `listIds`, one per phone, ordered by phone (the keyset). */
  const audienceWhere = (userId: string, listIds: string[], mobileOnly: boolean) => sql`
    ct.list_id = any(${pgArray(listIds)}::uuid[])
    and not exists (select 1 from opt_outs o where o.user_id = ${userId} and o.phone = ct.phone)
    ${mobileOnly ? sql`and ct.kind = 'mobile'` : sql``}`;

  return {
    /** The user's lists among `ids`, with their status and columns. */
    async listsOf(userId: string, ids: string[]) {
      if (ids.length === 0) return [];
      return db
        .select({ id: contactLists.id, status: contactLists.status, fieldKeys: contactLists.fieldKeys })
        .from(contactLists)
        .where(and(eq(contactLists.userId, userId), inArray(contactLists.id, ids)));
    },

    /**
     * How many contact rows, distinct phones, opted-out phones and (remaining) landlines the lists
     * hold. One pass: the opt-outs are joined (a hash of the account's, not a lookup per contact),
     * and a single list needs no `distinct` (a list holds a phone once: contacts_list_phone_key).
     * At 900,000 contacts: 0.23 s of PostgreSQL CPU for one list, 0.9 s for several (was 3.7 s).
     */
    async audienceCounts(userId: string, listIds: string[]): Promise<AudienceCounts> {
      const phones = new Set(listIds).size === 1 ? sql`*` : sql`distinct phone`;
      const [row] = await rowsOf<Record<keyof AudienceCounts, number | string>>(
        db.execute(sql`
          with c as (
            select ct.phone, ct.kind, o.phone is not null as opted
            from contacts ct left join opt_outs o on o.user_id = ${userId} and o.phone = ct.phone
            where ct.list_id = any(${pgArray(listIds)}::uuid[])
          )
          select count(*) as rows, count(${phones}) as phones,
            count(${phones}) filter (where opted) as "optedOut",
            count(${phones}) filter (where not opted and kind = 'landline') as landlines
          from c`),
      );
      return {
        rows: Number(row?.rows ?? 0),
        phones: Number(row?.phones ?? 0),
        optedOut: Number(row?.optedOut ?? 0),
        landlines: Number(row?.landlines ?? 0),
      };
    },

    /** A page of eligible recipients after `afterPhone`, in phone order (the first list's row wins a duplicate). */
    async audiencePage(
      userId: string,
      listIds: string[],
      mobileOnly: boolean,
      afterPhone: string,
      limit: number,
      tx: DbOrTx = db,
    ): Promise<Recipient[]> {
      return rowsOf<Recipient>(
        tx.execute(sql`
          select distinct on (ct.phone) ct.phone, ct.name, ct.fields
          from contacts ct
          where ${audienceWhere(userId, listIds, mobileOnly)} and ct.phone > ${afterPhone}
          order by ct.phone, array_position(${pgArray(listIds)}::uuid[], ct.list_id), ct.row_number
          limit ${limit}`),
      );
    },

    /**
     * The start's snapshot when every recipient gets the same message: one statement, the
     * audience's rows never leave the database. Returns how many recipients it wrote.
     */
    async insertSharedAudience(
      campaign: Pick<CampaignRow, 'id' | 'userId' | 'channel' | 'listIds'>,
      provider: string,
      mobileOnly: boolean,
      message: { parts: number; content: OutboundContent },
      now: Date,
      tx: DbOrTx,
    ): Promise<number> {
      const [row] = await rowsOf<{ n: number | string }>(
        tx.execute(sql`
          with audience as (
            select distinct on (ct.phone) ct.phone, ct.name from contacts ct
            where ${audienceWhere(campaign.userId, campaign.listIds, mobileOnly)}
            order by ct.phone, array_position(${pgArray(campaign.listIds)}::uuid[], ct.list_id), ct.row_number),
          ids as (${ID_PARTS}),
          written as (
            insert into messages (id, user_id, channel, to_phone, status, parts, provider, content, campaign_id, contact_name, created_at, updated_at)
            select ${idFrom(sql`a.n`)}, ${campaign.userId}, ${campaign.channel}, a.phone, 'queued', ${message.parts}, ${provider},
              ${JSON.stringify(message.content)}::jsonb, ${campaign.id}, a.name, ${now}, ${now}
            from (select audience.*, row_number() over () as n from audience) a cross join ids
            returning 1)
          select count(*) as n from written`),
      );
      return Number(row?.n ?? 0);
    },

    /** The start's snapshot: one `queued` message per recipient, in one statement per page. */
    async insertRecipients(
      campaign: Pick<CampaignRow, 'id' | 'userId' | 'channel'>,
      provider: string,
      rows: RecipientRow[],
      now: Date,
      tx: DbOrTx,
    ): Promise<void> {
      if (rows.length === 0) return;
      await tx.execute(sql`
        with ids as (${ID_PARTS})
        insert into messages (id, user_id, channel, to_phone, status, parts, provider, content, campaign_id, contact_name, short_code, created_at, updated_at)
        select ${idFrom(sql`r.n`)}, ${campaign.userId}, ${campaign.channel}, r.phone, 'queued', r.parts, ${provider}, r.content::jsonb,
          ${campaign.id}, r.name, r.short_code, ${now}, ${now}
        from unnest(${pgArray(rows.map((r) => r.phone))}::text[], ${pgArray(rows.map((r) => r.name))}::text[],
          ${pgArray(rows.map((r) => r.parts))}::int[], ${pgArray(rows.map((r) => JSON.stringify(r.content)))}::text[],
          ${pgArray(rows.map((r) => r.shortCode ?? null))}::text[]) with ordinality
          as r(phone, name, parts, content, short_code, n) cross join ids`);
    },

    /**
     * Claims up to `limit` queued recipients for `workerId` (→ `submitting`). SKIP LOCKED: two
     * dispatchers, in one process or many, never claim the same recipient. Only while the
     * campaign is RUNNING: a pause or cancel committed by another process stops new claims at once.
     */
    async claim(campaignId: string, workerId: string, limit: number): Promise<ClaimedRecipient[]> {
      return rowsOf<ClaimedRecipient>(
        db.execute(sql`
          update messages m set status = 'submitting', worker_id = ${workerId}, updated_at = now()
          where m.id in (
            select id from messages where campaign_id = ${campaignId} and status = 'queued'
              and exists (select 1 from campaigns c where c.id = ${campaignId} and c.status = 'RUNNING')
            limit ${limit} for update skip locked)
          returning m.id, m.to_phone as "toPhone", m.parts, m.content`),
      );
    },

    /** Clicks on a campaign's tracked link, and how many recipients clicked. */
    async clicks(campaignId: string): Promise<{ total: number; recipients: number }> {
      const [row] = await rowsOf<{ total: number | string; recipients: number | string }>(
        db.execute(sql`select count(*) as total, count(distinct message_id) as recipients
          from link_clicks where campaign_id = ${campaignId}`),
      );
      return { total: Number(row?.total ?? 0), recipients: Number(row?.recipients ?? 0) };
    },

    /**
     * Which of `ids` are still `submitting` under `workerId`'s claim. Read in a settle's
     * transaction after it locked the campaign row, which every other mover of a claimed
     * recipient (the supervisor's cut-off) locks first too, so the answer holds until it commits.
     */
    async heldBy(ids: string[], workerId: string, tx: DbOrTx): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await rowsOf<{ id: string }>(
        tx.execute(sql`
          select id from messages
          where id = any(${pgArray(ids)}::uuid[]) and status = 'submitting' and worker_id = ${workerId}`),
      );
      return new Set(rows.map((r) => r.id));
    },

    /** Claimed recipients given back untouched (nothing left Ecoa): `queued` again, in the settle's transaction. */
    async unclaim(ids: string[], workerId: string, tx: DbOrTx): Promise<void> {
      if (ids.length === 0) return;
      await tx.execute(sql`
        update messages set status = 'queued', worker_id = null, updated_at = now()
        where id = any(${pgArray(ids)}::uuid[]) and status = 'submitting' and worker_id = ${workerId}`);
    },

    /**
     * A live batch's recipients are not cut off: their `updated_at` is refreshed while the batch
     * is out (the supervisor's ten-minute limit is for batches whose loop hung or whose outcome
     * could not be stored).
     */
    async touchClaimed(ids: string[], workerId: string): Promise<void> {
      if (ids.length === 0) return;
      await db.execute(sql`
        update messages set updated_at = now()
        where id = any(${pgArray(ids)}::uuid[]) and status = 'submitting' and worker_id = ${workerId}`);
    },

    /** Cancel: every recipient still queued becomes `canceled`; their parts (to release) are returned. */
    async cancelQueued(campaignId: string, now: Date, tx: DbOrTx): Promise<number> {
      const [row] = await rowsOf<{ parts: number | string | null }>(
        tx.execute(sql`
          with c as (
            update messages set status = 'canceled', updated_at = ${now}, finished_at = ${now}
            where campaign_id = ${campaignId} and status = 'queued' returning parts)
          select sum(parts) as parts from c`),
      );
      return Number(row?.parts ?? 0);
    },

    /** Whether anything is left to send or in flight. */
    async pending(campaignId: string, tx: DbOrTx = db): Promise<{ queued: boolean; submitting: boolean }> {
      const [row] = await rowsOf<{ queued: boolean; submitting: boolean }>(
        tx.execute(sql`
          select exists (select 1 from messages where campaign_id = ${campaignId} and status = 'queued') as queued,
                 exists (select 1 from messages where campaign_id = ${campaignId} and status = 'submitting') as submitting`),
      );
      return { queued: Boolean(row?.queued), submitting: Boolean(row?.submitting) };
    },

    /** URA: the last digit each recipient pressed, counted. */
    async answers(campaignId: string): Promise<{ digit: string; count: number }[]> {
      const rows = await rowsOf<{ digit: string; n: number | string }>(
        db.execute(sql`
          select d.digits as digit, count(*) as n from (
            select distinct on (e.message_id) e.detail->>'digits' as digits
            from message_events e join messages m on m.id = e.message_id
            where m.campaign_id = ${campaignId} and e.detail ? 'digits'
            order by e.message_id, e.at desc, e.id desc) d
          group by d.digits order by n desc, d.digits`),
      );
      return rows.map((r) => ({ digit: r.digit, count: Number(r.n) }));
    },
  };
}
