import type { CampaignCounts, CampaignStatus, MessageStatus } from '@ecoa/shared';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { pgArray } from '../../platform/db/array-literal.ts';
import type { Database, DbOrTx } from '../../platform/db/client.ts';
import type { OutboundContent } from '../channels/provider.ts';
import { contactLists } from '../lists/lists.schema.ts';
import { users } from '../users/users.schema.ts';
import { type CampaignRow, campaigns, dispatchWorkers } from './campaigns.schema.ts';

export type NewCampaign = typeof campaigns.$inferInsert;

/** A contact that would receive the campaign (deduplicated across lists, opt-outs and landlines left out). */
export type Recipient = { phone: string; name: string | null; fields: Record<string, string> | null };

/** What the start's snapshot writes for one recipient. */
export type RecipientRow = { phone: string; name: string | null; parts: number; content: OutboundContent };

/** A recipient a dispatcher claimed (now `submitting`). */
export type ClaimedRecipient = { id: string; toPhone: string; parts: number; content: OutboundContent };

export type AudienceCounts = { rows: number; phones: number; optedOut: number; landlines: number };

type Rows<T> = { rows: T[] };
const rowsOf = async <T>(q: Promise<unknown>): Promise<T[]> => ((await q) as Rows<T>).rows;

/** A worker that has not beaten for this long is dead: what it claimed was cut off. */
export const WORKER_DEAD_AFTER_SECONDS = 30;

const COUNT_KEYS: Record<MessageStatus, keyof CampaignCounts> = {
  queued: 'queued',
  submitting: 'submitting',
  sent: 'sent',
  delivered: 'delivered',
  failed: 'failed',
  expired: 'expired',
  unknown: 'unknown',
  opted_out: 'optedOut',
  canceled: 'canceled',
};

export function emptyCounts(): CampaignCounts {
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

export function createCampaignsRepository(db: Database) {
  /** The eligible contacts of `listIds`, one per phone, ordered by phone (the keyset). */
  const audienceWhere = (userId: string, listIds: string[], mobileOnly: boolean) => sql`
    ct.list_id = any(${pgArray(listIds)}::uuid[])
    and not exists (select 1 from opt_outs o where o.user_id = ${userId} and o.phone = ct.phone)
    ${mobileOnly ? sql`and ct.kind = 'mobile'` : sql``}`;

  return {
    async insert(row: NewCampaign): Promise<CampaignRow> {
      const [created] = await db.insert(campaigns).values(row).returning();
      return created!;
    },

    async update(id: string, patch: Partial<NewCampaign>, tx: DbOrTx = db): Promise<CampaignRow | undefined> {
      const [row] = await tx.update(campaigns).set(patch).where(eq(campaigns.id, id)).returning();
      return row;
    },

    /** Moves the campaign from one of `from` to `to` (with `patch`); undefined when it was not in `from`. */
    async transition(
      id: string,
      from: CampaignStatus[],
      patch: Partial<NewCampaign> & { status: CampaignStatus },
      tx: DbOrTx = db,
    ): Promise<CampaignRow | undefined> {
      const [row] = await tx
        .update(campaigns)
        .set(patch)
        .where(and(eq(campaigns.id, id), inArray(campaigns.status, from)))
        .returning();
      return row;
    },

    async findById(id: string, tx: DbOrTx = db): Promise<CampaignRow | undefined> {
      const [row] = await tx.select().from(campaigns).where(eq(campaigns.id, id));
      return row;
    },

    async findOwned(userId: string, id: string): Promise<CampaignRow | undefined> {
      const [row] = await db
        .select()
        .from(campaigns)
        .where(and(eq(campaigns.id, id), eq(campaigns.userId, userId)));
      return row;
    },

    /** Locks the campaign row for the rest of the transaction (start, cancel). */
    async lock(tx: DbOrTx, userId: string, id: string): Promise<CampaignRow | undefined> {
      const [row] = await tx
        .select()
        .from(campaigns)
        .where(and(eq(campaigns.id, id), eq(campaigns.userId, userId)))
        .for('update');
      return row;
    },

    /** Locks the campaign row (any owner: the supervisor, an administrator). */
    async lockById(tx: DbOrTx, id: string): Promise<CampaignRow | undefined> {
      const [row] = await tx.select().from(campaigns).where(eq(campaigns.id, id)).for('update');
      return row;
    },

    /**
     * Takes over a RUNNING campaign nobody beat for within `seconds`: true for exactly one
     * supervisor, which then queues its work again.
     */
    async adoptOrphan(id: string, seconds: number): Promise<boolean> {
      const rows = await rowsOf<{ id: string }>(
        db.execute(sql`
          update campaigns set heartbeat_at = now() where id = ${id} and status = 'RUNNING'
            and (heartbeat_at is null or heartbeat_at < now() - make_interval(secs => ${seconds}))
          returning id`),
      );
      return rows.length > 0;
    },

    /** The user's lists among `ids`, with their status and columns. */
    async listsOf(userId: string, ids: string[]) {
      if (ids.length === 0) return [];
      return db
        .select({ id: contactLists.id, status: contactLists.status, fieldKeys: contactLists.fieldKeys })
        .from(contactLists)
        .where(and(eq(contactLists.userId, userId), inArray(contactLists.id, ids)));
    },

    /** How many contact rows, distinct phones, opted-out phones and (remaining) landlines the lists hold. */
    async audienceCounts(userId: string, listIds: string[]): Promise<AudienceCounts> {
      const [row] = await rowsOf<Record<keyof AudienceCounts, number | string>>(
        db.execute(sql`
          with c as (
            select ct.phone, ct.kind,
              exists (select 1 from opt_outs o where o.user_id = ${userId} and o.phone = ct.phone) as opted
            from contacts ct where ct.list_id = any(${pgArray(listIds)}::uuid[])
          )
          select count(*) as rows, count(distinct phone) as phones,
            count(distinct phone) filter (where opted) as "optedOut",
            count(distinct phone) filter (where not opted and kind = 'landline') as landlines
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

    /** The start's snapshot: one `queued` message per recipient, in one statement per page. */
    async insertRecipients(
      tx: DbOrTx,
      campaign: Pick<CampaignRow, 'id' | 'userId' | 'channel'>,
      provider: string,
      rows: RecipientRow[],
      now: Date,
    ): Promise<void> {
      if (rows.length === 0) return;
      await tx.execute(sql`
        insert into messages (user_id, channel, to_phone, status, parts, provider, content, campaign_id, contact_name, created_at, updated_at)
        select ${campaign.userId}, ${campaign.channel}, r.phone, 'queued', r.parts, ${provider}, r.content::jsonb,
          ${campaign.id}, r.name, ${now}, ${now}
        from unnest(${pgArray(rows.map((r) => r.phone))}::text[], ${pgArray(rows.map((r) => r.name))}::text[],
          ${pgArray(rows.map((r) => r.parts))}::int[], ${pgArray(rows.map((r) => JSON.stringify(r.content)))}::text[])
          as r(phone, name, parts, content)`);
    },

    /**
     * Claims up to `limit` queued recipients for `workerId` (→ `submitting`). SKIP LOCKED: two
     * dispatchers, in one process or many, never claim the same recipient.
     */
    async claim(campaignId: string, workerId: string, limit: number): Promise<ClaimedRecipient[]> {
      return rowsOf<ClaimedRecipient>(
        db.execute(sql`
          update messages m set status = 'submitting', worker_id = ${workerId}, updated_at = now()
          where m.id in (
            select id from messages where campaign_id = ${campaignId} and status = 'queued'
            limit ${limit} for update skip locked)
          returning m.id, m.to_phone as "toPhone", m.parts, m.content`),
      );
    },

    /** Claimed recipients given back untouched (the carrier was unavailable: nothing left Ecoa). */
    async unclaim(ids: string[]): Promise<void> {
      if (ids.length === 0) return;
      await db.execute(sql`
        update messages set status = 'queued', worker_id = null, updated_at = now()
        where id = any(${pgArray(ids)}::uuid[]) and status = 'submitting'`);
    },

    /** Cancel: every recipient still queued becomes `canceled`; their parts (to release) are returned. */
    async cancelQueued(tx: DbOrTx, campaignId: string, now: Date): Promise<number> {
      const [row] = await rowsOf<{ parts: number | string | null }>(
        tx.execute(sql`
          with c as (
            update messages set status = 'canceled', updated_at = ${now}, finished_at = ${now}
            where campaign_id = ${campaignId} and status = 'queued' returning parts)
          select sum(parts) as parts from c`),
      );
      return Number(row?.parts ?? 0);
    },

    /** Recipients per status. */
    async counts(campaignId: string, tx: DbOrTx = db): Promise<CampaignCounts> {
      const rows = await rowsOf<{ status: MessageStatus; n: number | string }>(
        tx.execute(sql`select status, count(*) as n from messages where campaign_id = ${campaignId} group by status`),
      );
      const counts = emptyCounts();
      for (const r of rows) counts[COUNT_KEYS[r.status]] += Number(r.n);
      return counts;
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

    /** Failure reasons, most frequent first. */
    async reasons(campaignId: string): Promise<{ reason: string; count: number }[]> {
      const rows = await rowsOf<{ reason: string; n: number | string }>(
        db.execute(sql`
          select reason, count(*) as n from messages
          where campaign_id = ${campaignId} and reason is not null and status in ('failed', 'expired', 'unknown')
          group by reason order by n desc, reason limit 20`),
      );
      return rows.map((r) => ({ reason: r.reason, count: Number(r.n) }));
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

    /** Adds to the campaign's credit mirror (the ledger moved the same amounts in this transaction). */
    async addCredits(tx: DbOrTx, id: string, moved: { used?: number; released?: number }): Promise<void> {
      await tx
        .update(campaigns)
        .set({
          creditsUsed: sql`${campaigns.creditsUsed} + ${moved.used ?? 0}`,
          creditsReleased: sql`${campaigns.creditsReleased} + ${moved.released ?? 0}`,
        })
        .where(eq(campaigns.id, id));
    },

    /** A dispatcher is working on it (and the supervisor leaves it alone). */
    async beat(id: string): Promise<void> {
      await db.execute(sql`update campaigns set heartbeat_at = now() where id = ${id}`);
    },

    async noteProviderFailure(id: string, failed: boolean): Promise<number> {
      const [row] = await db
        .update(campaigns)
        .set({ providerFailures: failed ? sql`${campaigns.providerFailures} + 1` : 0 })
        .where(eq(campaigns.id, id))
        .returning({ n: campaigns.providerFailures });
      return row?.n ?? 0;
    },

    /** Scheduled campaigns whose time came (also those whose time passed while Ecoa was down). */
    async due(now: Date): Promise<CampaignRow[]> {
      return db
        .select()
        .from(campaigns)
        .where(and(eq(campaigns.status, 'SCHEDULED'), sql`${campaigns.scheduledAt} <= ${now}`));
    },

    /** RUNNING campaigns no dispatcher beat for within `seconds` (their worker died, or they waited for their window). */
    async orphaned(seconds: number): Promise<CampaignRow[]> {
      return db
        .select()
        .from(campaigns)
        .where(
          and(
            eq(campaigns.status, 'RUNNING'),
            sql`(${campaigns.heartbeatAt} is null or ${campaigns.heartbeatAt} < now() - make_interval(secs => ${seconds}))`,
          ),
        );
    },

    /** RUNNING campaigns with recipients still queued (every live process helps with them). */
    async runningWithQueued(): Promise<CampaignRow[]> {
      return db
        .select()
        .from(campaigns)
        .where(
          and(
            eq(campaigns.status, 'RUNNING'),
            sql`exists (select 1 from messages m where m.campaign_id = ${campaigns.id} and m.status = 'queued')`,
          ),
        );
    },

    /** RUNNING or CANCELED campaigns with nothing queued or in flight but not finished yet. */
    async unfinished(): Promise<CampaignRow[]> {
      return db
        .select()
        .from(campaigns)
        .where(
          and(
            sql`(${campaigns.status} = 'RUNNING' or (${campaigns.status} = 'CANCELED' and ${campaigns.finishedAt} is null))`,
            sql`not exists (select 1 from messages m where m.campaign_id = ${campaigns.id} and m.status in ('queued', 'submitting'))`,
          ),
        );
    },

    /**
     * Recipients left `submitting` by a dispatcher that stopped beating (killed, crashed), or for
     * longer than any carrier call lasts (their outcome could not be stored).
     */
    async cutOff(limit = 5000): Promise<{ id: string; campaignId: string; parts: number; userId: string }[]> {
      return rowsOf(
        db.execute(sql`
          select m.id, m.campaign_id as "campaignId", m.parts, m.user_id as "userId" from messages m
          where m.status = 'submitting' and m.campaign_id is not null
            and (m.updated_at < now() - interval '10 minutes'
              or not exists (select 1 from dispatch_workers w where w.id = m.worker_id
                and w.heartbeat_at > now() - make_interval(secs => ${WORKER_DEAD_AFTER_SECONDS})))
          limit ${limit}`),
      );
    },

    /** This process is alive. */
    async workerBeat(workerId: string, pid: number): Promise<void> {
      await db
        .insert(dispatchWorkers)
        .values({
          id: workerId,
          heartbeatAt: sql`now()` as unknown as Date,
          startedAt: sql`now()` as unknown as Date,
          pid,
        })
        .onConflictDoUpdate({ target: dispatchWorkers.id, set: { heartbeatAt: sql`now()` } });
    },

    /** PGlite is one process: any other worker is a previous run, dead. */
    async forgetOtherWorkers(workerId: string): Promise<void> {
      await db.execute(sql`delete from dispatch_workers where id <> ${workerId}`);
    },

    async forgetWorker(workerId: string): Promise<void> {
      await db.delete(dispatchWorkers).where(eq(dispatchWorkers.id, workerId));
    },

    /** How many dispatching processes are alive (the carriers' and campaigns' rates are shared among them). */
    async liveWorkers(): Promise<number> {
      const [row] = await rowsOf<{ n: number | string }>(
        db.execute(sql`
          select count(*) as n from dispatch_workers
          where heartbeat_at > now() - make_interval(secs => ${WORKER_DEAD_AFTER_SECONDS})`),
      );
      return Math.max(1, Number(row?.n ?? 1));
    },

    /** Whether a scheduled/running/paused campaign of the user plays this audio. */
    async audioInUse(userId: string, audioId: string, tx: DbOrTx = db): Promise<boolean> {
      const rows = await rowsOf<{ id: string }>(
        tx.execute(sql`
          select id from campaigns where user_id = ${userId}
            and status in ('SCHEDULED', 'RUNNING', 'PAUSED')
            and (content->>'audioId' = ${audioId} or content->'menu'->>'audioId' = ${audioId})
          limit 1`),
      );
      return rows.length > 0;
    },

    /** The user's first campaign started: the onboarding is over. */
    async clearNewUser(tx: DbOrTx, userId: string): Promise<void> {
      await tx.update(users).set({ isNewUser: false }).where(eq(users.id, userId));
    },
  };
}

export type CampaignsRepository = ReturnType<typeof createCampaignsRepository>;
