import { randomUUID } from 'node:crypto';
import type { LinkFallback, LinkPixels, TargetHours } from '@ecoa/shared';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { pgArray } from '../../platform/db/array-literal.ts';
import type { Database, DbOrTx } from '../../platform/db/client.ts';
import { rowsOf } from '../../platform/db/rows.ts';
import { createLinkClickQueries } from './links.clicks.repository.ts';
import { type LinkTargetRow, linkTargets, type RotatingLinkRow, rotatingLinks } from './links.schema.ts';

export type NewLink = {
  userId: string;
  name: string;
  slug: string;
  mode: RotatingLinkRow['mode'];
  sticky: boolean;
  fallback: LinkFallback | null;
  pixels: LinkPixels | null;
};
export type TargetWrite = {
  id?: string;
  kind: 'whatsapp' | 'url';
  phone: string | null;
  url: string | null;
  label: string | null;
  message: string | null;
  weight: number;
  active: boolean;
  hours: TargetHours | null;
};
/** A campaign recipient's tracked link: whose, to whom it was sent, and where it leads. */
export type TrackedLink = {
  messageId: string;
  campaignId: string;
  userId: string;
  /** The recipient's number (E.164). */
  to: string;
  rotatingLinkSlug: string | null;
  url: string | null;
};
/** A link as the hop reads it: the row and its current targets. */
export type HopLink = RotatingLinkRow & { targets: LinkTargetRow[] };
export type { ClickTotals } from './links.clicks.repository.ts';

/** The jsonb of `json_agg(t)` back to a target row (snake_case → the Drizzle row). */
function targetFromJson(t: Record<string, unknown>): LinkTargetRow {
  return {
    id: t.id as string,
    linkId: t.link_id as string,
    position: t.position as number,
    kind: t.kind as LinkTargetRow['kind'],
    phone: (t.phone as string | null) ?? null,
    url: (t.url as string | null) ?? null,
    label: (t.label as string | null) ?? null,
    message: (t.message as string | null) ?? null,
    weight: t.weight as number,
    active: t.active as boolean,
    hours: (t.hours as TargetHours | null) ?? null,
    removedAt: null,
  };
}

function linkFromRow(r: Record<string, unknown>): RotatingLinkRow {
  const date = (v: unknown) => (v ? new Date(v as string) : null);
  return {
    id: r.id as string,
    userId: r.user_id as string,
    name: r.name as string,
    slug: r.slug as string,
    mode: r.mode as RotatingLinkRow['mode'],
    sticky: r.sticky as boolean,
    status: r.status as RotatingLinkRow['status'],
    fallback: (r.fallback as LinkFallback | null) ?? null,
    pixels: (r.pixels as LinkPixels | null) ?? null,
    turnSequence: r.turn_sequence as string,
    disabledAt: date(r.disabled_at),
    disabledReason: (r.disabled_reason as string | null) ?? null,
    deletedAt: date(r.deleted_at),
    createdAt: date(r.created_at)!,
    updatedAt: date(r.updated_at)!,
  };
}

export function createLinksRepository(db: Database) {
  const hopSelect = (slug: string) => sql`
    select l.*, coalesce((select json_agg(t order by t.position) from link_targets t
        where t.link_id = l.id and t.removed_at is null), '[]'::json) as targets
    from rotating_links l
    where l.slug = ${slug} and l.deleted_at is null and l.status = 'active' and l.disabled_at is null`;
  const toHop = (rows: Record<string, unknown>[]): HopLink | undefined => {
    const r = rows[0];
    if (!r) return undefined;
    const targets = (typeof r.targets === 'string' ? JSON.parse(r.targets) : r.targets) as Record<string, unknown>[];
    return { ...linkFromRow(r), targets: targets.map(targetFromJson) };
  };

  return {
    ...createLinkClickQueries(db),
    /** A new link and its turn sequence, in the caller's transaction. */
    async insert(link: NewLink, tx: DbOrTx): Promise<RotatingLinkRow> {
      const id = randomUUID();
      const turnSequence = `link_turns_${id.replaceAll('-', '')}`;
      await tx.execute(sql.raw(`create sequence ${turnSequence}`));
      const [row] = await tx
        .insert(rotatingLinks)
        .values({ ...link, id, turnSequence })
        .returning();
      return row!;
    },

    async update(id: string, patch: Partial<NewLink> & { status?: RotatingLinkRow['status'] }, tx: DbOrTx) {
      const [row] = await tx
        .update(rotatingLinks)
        .set({ ...patch, updatedAt: new Date() })
        .where(eq(rotatingLinks.id, id))
        .returning();
      return row;
    },

    /** Writes a link's targets in order: known ids updated, new ones added, missing ones marked removed. */
    async replaceTargets(linkId: string, targets: TargetWrite[], now: Date, tx: DbOrTx): Promise<void> {
      const kept = targets.filter((t) => t.id).map((t) => t.id!);
      await tx.execute(sql`
        update link_targets set removed_at = ${now}
        where link_id = ${linkId} and removed_at is null and not (id = any(${pgArray(kept)}::uuid[]))`);
      for (const [position, t] of targets.entries()) {
        const values = { ...t, id: undefined, position, linkId };
        if (t.id) {
          await tx
            .update(linkTargets)
            .set({ ...values, removedAt: null })
            .where(and(eq(linkTargets.id, t.id), eq(linkTargets.linkId, linkId)));
        } else {
          await tx.insert(linkTargets).values(values);
        }
      }
    },

    async targetsOf(linkIds: string[], tx: DbOrTx = db): Promise<LinkTargetRow[]> {
      if (linkIds.length === 0) return [];
      return tx
        .select()
        .from(linkTargets)
        .where(and(sql`${linkTargets.linkId} = any(${pgArray(linkIds)}::uuid[])`, isNull(linkTargets.removedAt)))
        .orderBy(asc(linkTargets.linkId), asc(linkTargets.position));
    },

    async findOwned(userId: string, id: string, tx: DbOrTx = db): Promise<RotatingLinkRow | undefined> {
      const [row] = await tx
        .select()
        .from(rotatingLinks)
        .where(and(eq(rotatingLinks.id, id), eq(rotatingLinks.userId, userId), isNull(rotatingLinks.deletedAt)));
      return row;
    },

    async findById(id: string, tx: DbOrTx = db): Promise<RotatingLinkRow | undefined> {
      const [row] = await tx
        .select()
        .from(rotatingLinks)
        .where(and(eq(rotatingLinks.id, id), isNull(rotatingLinks.deletedAt)));
      return row;
    },

    async slugTaken(slug: string, exceptId?: string, tx: DbOrTx = db): Promise<boolean> {
      const rows = await rowsOf<{ id: string }>(
        tx.execute(sql`select id from rotating_links where slug = ${slug} and deleted_at is null
          ${exceptId ? sql`and id <> ${exceptId}` : sql``} limit 1`),
      );
      return rows.length > 0;
    },

    /** A page of links (one owner, or everyone's for administrators), newest first. */
    async page(filter: { userId?: string; q?: string; page: number; pageSize: number }) {
      const where = sql`l.deleted_at is null
        ${filter.userId ? sql`and l.user_id = ${filter.userId}` : sql``}
        ${filter.q ? sql`and (l.name ilike ${`%${filter.q}%`} or l.slug ilike ${`%${filter.q}%`})` : sql``}`;
      const [count] = await rowsOf<{ n: number | string }>(
        db.execute(sql`select count(*) as n from rotating_links l where ${where}`),
      );
      const rows = await rowsOf<Record<string, unknown>>(
        db.execute(sql`select l.*, u.full_name as owner_name, u.email as owner_email, u.name as owner_company
          from rotating_links l join users u on u.id = l.user_id
          where ${where} order by l.created_at desc, l.id
          limit ${filter.pageSize} offset ${(filter.page - 1) * filter.pageSize}`),
      );
      return {
        total: Number(count?.n ?? 0),
        items: rows.map((r) => ({
          link: linkFromRow(r),
          owner: {
            id: r.user_id as string,
            name: r.owner_name as string,
            email: r.owner_email as string,
            company: r.owner_company as string,
          },
        })),
      };
    },

    async softDelete(id: string, now: Date, tx: DbOrTx): Promise<void> {
      await tx.update(rotatingLinks).set({ deletedAt: now, updatedAt: now }).where(eq(rotatingLinks.id, id));
    },

    async setDisabled(id: string, disabled: boolean, reason: string | null, now: Date, tx: DbOrTx) {
      const [row] = await tx
        .update(rotatingLinks)
        .set({ disabledAt: disabled ? now : null, disabledReason: disabled ? reason : null, updatedAt: now })
        .where(eq(rotatingLinks.id, id))
        .returning();
      return row;
    },

    /** A live link by slug with its current targets (the hop caches it for a second). */
    async findLive(slug: string): Promise<HopLink | undefined> {
      return toHop(await rowsOf<Record<string, unknown>>(db.execute(hopSelect(slug))));
    },

    /** This click's turn: the next value of the link's sequence (unique across every process). */
    async nextTurn(turnSequence: string): Promise<number> {
      const [row] = await rowsOf<{ turn: number | string }>(
        db.execute(sql`select nextval(${turnSequence}::regclass) as turn`),
      );
      return Number(row!.turn);
    },

    /**
     * A campaign recipient's tracked link by its code: the message, its campaign, and where the
     * campaign's `{link}` leads (a live rotating link's slug, or a URL). Reads the campaigns'
     * rows: the tracked link is part of a campaign's content. None when an administrator turned
     * the campaign's tracked links off.
     */
    async findTracked(code: string): Promise<TrackedLink | undefined> {
      const [row] = await rowsOf<{
        message_id: string;
        campaign_id: string;
        user_id: string;
        to_phone: string;
        slug: string | null;
        url: string | null;
        link_id: string | null;
      }>(
        db.execute(sql`
          select m.id as message_id, m.campaign_id, c.user_id, m.to_phone, c.content->'trackedLink'->>'url' as url,
            c.content->'trackedLink'->>'rotatingLinkId' as link_id, l.slug
          from messages m join campaigns c on c.id = m.campaign_id
          left join rotating_links l on l.id::text = c.content->'trackedLink'->>'rotatingLinkId' and l.deleted_at is null
          where m.short_code = ${code} and c.links_disabled_at is null`),
      );
      if (!row) return undefined;
      const found = { messageId: row.message_id, campaignId: row.campaign_id, userId: row.user_id, to: row.to_phone };
      // A rotating link deleted since: nowhere to go (the friendly page).
      if (row.link_id && !row.slug) return { ...found, rotatingLinkSlug: null, url: null };
      return { ...found, rotatingLinkSlug: row.slug, url: row.url };
    },
  };
}

export type LinksRepository = ReturnType<typeof createLinksRepository>;
