/**
 * Campaigns' tracked links as the administrators see them: a campaign whose text carries a
 * `{link}` gives each recipient a short address; they are listed, and turned off, per campaign.
 * Reads and writes the campaigns' rows (the tracked link is part of a campaign's content).
 */
import { sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../platform/db/client.ts';
import { rowsOf } from '../../platform/db/rows.ts';

export type TrackedLinkRow = {
  id: string;
  name: string;
  status: string;
  userId: string;
  userName: string;
  userEmail: string;
  userCompany: string;
  url: string | null;
  rotatingLinkId: string | null;
  rotatingLinkName: string | null;
  rotatingLinkSlug: string | null;
  recipients: number;
  clicks: number;
  clickers: number;
  disabledAt: Date | null;
  disabledReason: string | null;
  createdAt: Date;
};

export function createTrackedLinksRepository(db: Database) {
  return {
    /** Campaigns with a tracked link (drafts have no addresses yet), newest first. */
    async page(filter: { q?: string; id?: string; page: number; pageSize: number }) {
      const where = sql`c.content ? 'trackedLink' and c.status <> 'DRAFT'
        ${filter.id ? sql`and c.id = ${filter.id}` : sql``}
        ${filter.q ? sql`and (c.name ilike ${`%${filter.q}%`} or u.email ilike ${`%${filter.q}%`} or u.name ilike ${`%${filter.q}%`})` : sql``}`;
      const [count] = await rowsOf<{ n: number | string }>(
        db.execute(sql`select count(*) as n from campaigns c join users u on u.id = c.user_id where ${where}`),
      );
      const rows = await rowsOf<Record<string, unknown>>(
        db.execute(sql`
          select c.id, c.name, c.status, c.user_id, u.full_name as user_name, u.email as user_email,
            u.name as user_company, c.content->'trackedLink'->>'url' as url,
            c.content->'trackedLink'->>'rotatingLinkId' as rotating_link_id, l.name as link_name, l.slug as link_slug,
            c.total, c.links_disabled_at, c.links_disabled_reason, c.created_at, k.clicks, k.clickers
          from campaigns c join users u on u.id = c.user_id
          left join rotating_links l on l.id::text = c.content->'trackedLink'->>'rotatingLinkId'
          left join lateral (
            select count(*) as clicks, count(distinct message_id) as clickers
            from link_clicks where campaign_id = c.id) k on true
          where ${where} order by c.created_at desc, c.id
          limit ${filter.pageSize} offset ${(filter.page - 1) * filter.pageSize}`),
      );
      return { total: Number(count?.n ?? 0), rows: rows.map(toRow) };
    },

    async find(
      id: string,
    ): Promise<{ id: string; disabledAt: Date | null; disabledReason: string | null } | undefined> {
      const [row] = await rowsOf<{
        id: string;
        links_disabled_at: Date | string | null;
        links_disabled_reason: string | null;
      }>(
        db.execute(sql`select id, links_disabled_at, links_disabled_reason from campaigns
          where id = ${id} and content ? 'trackedLink'`),
      );
      if (!row) return undefined;
      return {
        id: row.id,
        disabledAt: row.links_disabled_at ? new Date(row.links_disabled_at) : null,
        disabledReason: row.links_disabled_reason,
      };
    },

    async setDisabled(id: string, disabled: boolean, reason: string | null, now: Date, tx: DbOrTx): Promise<void> {
      await tx.execute(sql`update campaigns set links_disabled_at = ${disabled ? now : null},
        links_disabled_reason = ${disabled ? reason : null} where id = ${id}`);
    },
  };
}

export type TrackedLinksRepository = ReturnType<typeof createTrackedLinksRepository>;

function toRow(r: Record<string, unknown>): TrackedLinkRow {
  return {
    id: String(r.id),
    name: String(r.name),
    status: String(r.status),
    userId: String(r.user_id),
    userName: String(r.user_name ?? ''),
    userEmail: String(r.user_email ?? ''),
    userCompany: String(r.user_company ?? ''),
    url: (r.url as string | null) ?? null,
    rotatingLinkId: (r.rotating_link_id as string | null) ?? null,
    rotatingLinkName: (r.link_name as string | null) ?? null,
    rotatingLinkSlug: (r.link_slug as string | null) ?? null,
    recipients: Number(r.total ?? 0),
    clicks: Number(r.clicks ?? 0),
    clickers: Number(r.clickers ?? 0),
    disabledAt: r.links_disabled_at ? new Date(r.links_disabled_at as string) : null,
    disabledReason: (r.links_disabled_reason as string | null) ?? null,
    createdAt: new Date(r.created_at as string),
  };
}
