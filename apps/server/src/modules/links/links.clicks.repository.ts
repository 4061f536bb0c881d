/**
 * The clicks of rotating links and tracked links in the database: written in batches, counted
 * per link and target, the stats of a period, the export's pages. Part of the links repository
 * (spread into it), kept apart to stay readable.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import { pgArray } from '../../platform/db/array-literal.ts';
import type { Database, DbOrTx } from '../../platform/db/client.ts';
import { rowsOf } from '../../platform/db/rows.ts';
import { type LinkTargetRow, linkClicks, linkTargets, type NewLinkClick } from './links.schema.ts';

export type ClickTotals = { clicks: number; last7Days: number; perTarget: Map<string, number> };

export function createLinkClickQueries(db: Database) {
  return {
    /** Clicks per link (all time and the last 7 days) and per target. */
    async clickTotals(linkIds: string[], since7: Date): Promise<Map<string, ClickTotals>> {
      const totals = new Map<string, ClickTotals>();
      if (linkIds.length === 0) return totals;
      const rows = await rowsOf<{
        link_id: string;
        target_id: string | null;
        n: number | string;
        recent: number | string;
      }>(
        db.execute(sql`select link_id, target_id, count(*) as n, count(*) filter (where at >= ${since7}) as recent
          from link_clicks where link_id = any(${pgArray(linkIds)}::uuid[]) group by link_id, target_id`),
      );
      for (const r of rows) {
        const t = totals.get(r.link_id) ?? { clicks: 0, last7Days: 0, perTarget: new Map() };
        t.clicks += Number(r.n);
        t.last7Days += Number(r.recent);
        if (r.target_id) t.perTarget.set(r.target_id, Number(r.n));
        totals.set(r.link_id, t);
      }
      return totals;
    },

    /** Many clicks in one statement (`unnest`: a fixed number of parameters whatever the count). */
    async insertClicks(clicks: NewLinkClick[], tx: DbOrTx = db): Promise<void> {
      if (clicks.length === 0) return;
      const col = <K extends keyof NewLinkClick>(k: K) => pgArray(clicks.map((c) => (c[k] ?? null) as string | null));
      await tx.execute(sql`
        insert into link_clicks (link_id, target_id, message_id, campaign_id, at, referrer, utm_source, utm_medium, utm_campaign, utm_term, utm_content, device, country, visitor)
        select * from unnest(${col('linkId')}::uuid[], ${col('targetId')}::uuid[], ${col('messageId')}::uuid[], ${col('campaignId')}::uuid[],
          ${pgArray(clicks.map((c) => (c.at instanceof Date ? c.at.toISOString() : String(c.at))))}::timestamptz[],
          ${col('referrer')}::text[], ${col('utmSource')}::text[], ${col('utmMedium')}::text[], ${col('utmCampaign')}::text[],
          ${col('utmTerm')}::text[], ${col('utmContent')}::text[], ${col('device')}::text[], ${col('country')}::text[], ${col('visitor')}::text[])`);
    },

    /** A link's clicks between two instants: totals per target, per day or hour (São Paulo), top referrers and UTM campaigns. */
    async stats(linkId: string, from: Date, to: Date, bucket: 'day' | 'hour') {
      const range = sql`link_id = ${linkId} and at >= ${from} and at < ${to}`;
      const unit = bucket === 'hour' ? sql`'hour'` : sql`'day'`;
      const [byTarget, byDay, referrers, campaigns] = await Promise.all([
        rowsOf<{ target_id: string | null; n: number | string }>(
          db.execute(sql`select target_id, count(*) as n from link_clicks where ${range} group by target_id`),
        ),
        rowsOf<{ bucket: string; n: number | string }>(
          // Every bucket of the period, the empty ones too (a chart shows the quiet days).
          db.execute(sql`with clicks as (
              select date_trunc(${unit}, at at time zone 'America/Sao_Paulo') as b, count(*) as n
              from link_clicks where ${range} group by 1),
            buckets as (
              select generate_series(date_trunc(${unit}, ${from}::timestamptz at time zone 'America/Sao_Paulo'),
                date_trunc(${unit}, (${to}::timestamptz - interval '1 microsecond') at time zone 'America/Sao_Paulo'),
                ('1 ' || ${unit})::interval) as b)
            select to_char(buckets.b, 'YYYY-MM-DD"T"HH24:MI') as bucket, coalesce(clicks.n, 0) as n
            from buckets left join clicks on clicks.b = buckets.b order by buckets.b`),
        ),
        rowsOf<{ referrer: string; n: number | string }>(
          db.execute(sql`select referrer, count(*) as n from link_clicks where ${range} and referrer is not null
            group by referrer order by n desc, referrer limit 10`),
        ),
        rowsOf<{ utm_campaign: string; n: number | string }>(
          db.execute(sql`select utm_campaign, count(*) as n from link_clicks where ${range} and utm_campaign is not null
            group by utm_campaign order by n desc, utm_campaign limit 10`),
        ),
      ]);
      return { byTarget, byDay, referrers, campaigns };
    },

    /** Every target a link ever had (removed ones too), for the labels of old clicks. */
    async allTargets(linkId: string): Promise<LinkTargetRow[]> {
      return db.select().from(linkTargets).where(eq(linkTargets.linkId, linkId)).orderBy(asc(linkTargets.position));
    },

    /** A page of a link's clicks after `afterId` (the CSV export walks them by id). */
    async clicksAfter(linkId: string, afterId: number, limit: number) {
      return db
        .select()
        .from(linkClicks)
        .where(and(eq(linkClicks.linkId, linkId), sql`${linkClicks.id} > ${afterId}`))
        .orderBy(asc(linkClicks.id))
        .limit(limit);
    },
  };
}
