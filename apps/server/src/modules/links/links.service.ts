/**
 * Rotating links: their rules (slugs, targets, modes, hours, fallback, pixels), the owner's
 * CRUD, stats and export, the administrators' list and disable (audited). The public hop is
 * `links.hop.ts`.
 */
import {
  LINK_STATS_MAX_DAYS,
  type LinkFallback,
  type LinkInput,
  type LinkPatch,
  type LinkStats,
  type LinkTargetInput,
  normalizeBrazilianPhone,
  type RotatingLink,
} from '@ecoa/shared';
import type { Clock } from '../../platform/clock/clock.ts';
import type { Database } from '../../platform/db/client.ts';
import { sqlStateOf } from '../../platform/db/errors.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { boundedPeriod } from '../../platform/http/period.ts';
import { type LinksAudit, setDisabledAudited } from './links.disable.ts';
import type { LinksRepository, TargetWrite } from './links.repository.ts';
import type { LinkTargetRow, RotatingLinkRow } from './links.schema.ts';

export type LinksServiceDeps = {
  db: Database;
  repo: LinksRepository;
  audit: LinksAudit;
  publicUrl: string;
  /** This process's hop forgets a changed link at once (others within a second). */
  forget: (...slugs: string[]) => void;
  clock: Clock;
};

const DAY = 86_400_000;
const PLACEHOLDER = /\{([^{}]*)\}/g;
const KNOWN_PLACEHOLDERS = new Set(['nome_do_link', 'atendente']);

function checkMessage(message: string | undefined, index: number): void {
  for (const [, name] of (message ?? '').matchAll(PLACEHOLDER)) {
    if (!KNOWN_PLACEHOLDERS.has(name ?? ''))
      throw new AppError('LINK_MESSAGE_PLACEHOLDER', {
        placeholder: name ?? '',
        target: index,
      });
  }
}

function checkUrl(url: string, index: number | 'fallback'): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') || !parsed.hostname.includes('.')) {
    throw new AppError('LINK_URL_INVALID', { target: index });
  }
  return parsed.toString();
}

function checkPhone(phone: string, index: number | 'fallback'): string {
  const result = normalizeBrazilianPhone(phone);
  if (!result.ok) throw new AppError('LINK_PHONE_INVALID', { target: index });
  return result.e164;
}

/** A target as stored: phone in E.164, URL checked, defaults filled. */
function targetWrite(t: LinkTargetInput, index: number): TargetWrite {
  const common = {
    id: t.id,
    label: t.label?.trim() || null,
    weight: t.weight ?? 1,
    active: t.active ?? true,
    hours: t.hours ?? null,
  };
  if (t.kind === 'url') return { ...common, kind: 'url', url: checkUrl(t.url, index), phone: null, message: null };
  checkMessage(t.message, index);
  return { ...common, kind: 'whatsapp', phone: checkPhone(t.phone, index), url: null, message: t.message || null };
}

function fallbackOf(f: LinkFallback | null | undefined): LinkFallback | null {
  if (!f) return null;
  if (f.kind === 'url') return { kind: 'url', url: checkUrl(f.url, 'fallback') };
  checkMessage(f.message, -1);
  return { kind: 'whatsapp', phone: checkPhone(f.phone, 'fallback'), ...(f.message ? { message: f.message } : {}) };
}

export function createLinksService(deps: LinksServiceDeps) {
  const { db, repo, clock } = deps;

  function toDto(
    link: RotatingLinkRow,
    targets: LinkTargetRow[],
    totals: { clicks: number; last7Days: number; perTarget: Map<string, number> } | undefined,
  ): RotatingLink {
    return {
      id: link.id,
      name: link.name,
      slug: link.slug,
      url: `${deps.publicUrl}/l/${link.slug}`,
      mode: link.mode,
      sticky: link.sticky,
      status: link.status,
      disabled: link.disabledAt !== null,
      disabledReason: link.disabledReason,
      targets: targets.map((t) => ({
        id: t.id,
        kind: t.kind,
        phone: t.phone,
        url: t.url,
        label: t.label,
        message: t.message,
        weight: t.weight,
        active: t.active,
        hours: t.hours,
        clicks: totals?.perTarget.get(t.id) ?? 0,
      })),
      fallback: link.fallback,
      pixels: link.pixels,
      clicks: totals?.clicks ?? 0,
      clicksLast7Days: totals?.last7Days ?? 0,
      createdAt: link.createdAt.toISOString(),
      updatedAt: link.updatedAt.toISOString(),
    };
  }

  async function dtos(links: RotatingLinkRow[]): Promise<RotatingLink[]> {
    const ids = links.map((l) => l.id);
    const [targets, totals] = await Promise.all([
      repo.targetsOf(ids),
      repo.clickTotals(ids, new Date(clock.now().getTime() - 7 * DAY)),
    ]);
    return links.map((l) =>
      toDto(
        l,
        targets.filter((t) => t.linkId === l.id),
        totals.get(l.id),
      ),
    );
  }

  async function owned(userId: string, id: string): Promise<RotatingLinkRow> {
    const link = await repo.findOwned(userId, id);
    if (!link) throw new AppError('LINK_NOT_FOUND');
    return link;
  }

  /** Runs `work`; a slug another link took meanwhile (the unique index) is the same 409 as the check's. */
  async function withSlug<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (sqlStateOf(err) === '23505') throw new AppError('LINK_SLUG_TAKEN');
      throw err;
    }
  }

  return {
    async create(userId: string, input: LinkInput): Promise<RotatingLink> {
      const targets = input.targets.map(targetWrite);
      const fallback = fallbackOf(input.fallback);
      if (await repo.slugTaken(input.slug)) throw new AppError('LINK_SLUG_TAKEN');
      const link = await withSlug(() =>
        db.transaction(async (tx) => {
          const row = await repo.insert(
            {
              userId,
              name: input.name,
              slug: input.slug,
              mode: input.mode,
              sticky: input.sticky ?? false,
              fallback,
              pixels: input.pixels ?? null,
            },
            tx,
          );
          await repo.replaceTargets(row.id, targets, clock.now(), tx);
          return row;
        }),
      );
      deps.forget(link.slug);
      return (await dtos([link]))[0]!;
    },

    async update(userId: string, id: string, patch: LinkPatch): Promise<RotatingLink> {
      const link = await owned(userId, id);
      const targets = patch.targets?.map(targetWrite);
      if (targets) {
        const known = new Set((await repo.targetsOf([id])).map((t) => t.id));
        for (const [i, t] of targets.entries())
          if (t.id && !known.has(t.id)) throw new AppError('LINK_TARGET_UNKNOWN', { target: i });
      }
      const fallback = patch.fallback === undefined ? undefined : fallbackOf(patch.fallback);
      if (patch.slug && patch.slug !== link.slug && (await repo.slugTaken(patch.slug, id)))
        throw new AppError('LINK_SLUG_TAKEN');
      await withSlug(() =>
        db.transaction(async (tx) => {
          await repo.update(
            id,
            {
              ...(patch.name !== undefined ? { name: patch.name } : {}),
              ...(patch.slug !== undefined ? { slug: patch.slug } : {}),
              ...(patch.mode !== undefined ? { mode: patch.mode } : {}),
              ...(patch.sticky !== undefined ? { sticky: patch.sticky } : {}),
              ...(patch.status !== undefined ? { status: patch.status } : {}),
              ...(fallback !== undefined ? { fallback } : {}),
              ...(patch.pixels !== undefined ? { pixels: patch.pixels ?? null } : {}),
            },
            tx,
          );
          if (targets) await repo.replaceTargets(id, targets, clock.now(), tx);
        }),
      );
      deps.forget(link.slug, patch.slug ?? link.slug);
      return this.get(userId, id);
    },

    /** Whether the user owns this live link (a campaign's tracked `{link}` checks it). */
    async exists(userId: string, id: string): Promise<boolean> {
      return (await repo.findOwned(userId, id)) !== undefined;
    },

    async get(userId: string, id: string): Promise<RotatingLink> {
      return (await dtos([await owned(userId, id)]))[0]!;
    },

    async list(userId: string, query: { q?: string; page: number; pageSize: number }) {
      const { items, total } = await repo.page({ userId, ...query });
      return { items: await dtos(items.map((i) => i.link)), total, page: query.page, pageSize: query.pageSize };
    },

    async remove(userId: string, id: string): Promise<void> {
      const link = await owned(userId, id);
      await db.transaction((tx) => repo.softDelete(id, clock.now(), tx));
      deps.forget(link.slug);
    },

    async stats(userId: string, id: string, query: { from?: string; to?: string; bucket: 'day' | 'hour' }) {
      await owned(userId, id);
      const { from, to } = boundedPeriod(query, {
        now: clock.now(),
        defaultDays: 30,
        maxDays: LINK_STATS_MAX_DAYS[query.bucket],
      });
      const [raw, targets] = await Promise.all([repo.stats(id, from, to, query.bucket), repo.allTargets(id)]);
      const labels = new Map(targets.map((t) => [t.id, t.label ?? t.phone ?? t.url]));
      const stats: LinkStats = {
        clicks: raw.byTarget.reduce((n, r) => n + Number(r.n), 0),
        from: from.toISOString(),
        to: to.toISOString(),
        bucket: query.bucket,
        byTarget: raw.byTarget
          .filter((r) => r.target_id)
          .map((r) => ({ targetId: r.target_id, label: labels.get(r.target_id!) ?? null, clicks: Number(r.n) }))
          .sort((a, b) => b.clicks - a.clicks),
        byDay: raw.byDay.map((r) => ({ day: r.bucket, clicks: Number(r.n) })),
        topReferrers: raw.referrers.map((r) => ({ referrer: r.referrer, clicks: Number(r.n) })),
        topCampaigns: raw.campaigns.map((r) => ({ utmCampaign: r.utm_campaign, clicks: Number(r.n) })),
        fallbackClicks: Number(raw.byTarget.find((r) => !r.target_id)?.n ?? 0),
      };
      return stats;
    },

    /** The owner's link and a reader of its clicks for the CSV export. */
    async exportSource(userId: string, id: string) {
      const link = await owned(userId, id);
      const labels = new Map((await repo.allTargets(id)).map((t) => [t.id, t.label ?? t.phone ?? t.url ?? '']));
      return { link, labels, pageAfter: (afterId: number) => repo.clicksAfter(id, afterId, 5000) };
    },

    async adminList(query: { userId?: string; q?: string; page: number; pageSize: number }) {
      const { items, total } = await repo.page(query);
      const links = await dtos(items.map((i) => i.link));
      return {
        items: links.map((l, i) => ({ ...l, user: items[i]!.owner })),
        total,
        page: query.page,
        pageSize: query.pageSize,
      };
    },

    async adminSetDisabled(actorId: string, id: string, disabled: boolean, reason: string | undefined) {
      const link = await repo.findById(id);
      if (!link) throw new AppError('LINK_NOT_FOUND');
      await setDisabledAudited(deps, { actorId, kind: 'link', target: link, disabled, reason });
      deps.forget(link.slug);
      const updated = await repo.findById(id);
      return (await dtos([updated!]))[0]!;
    },
  };
}

export type LinksService = ReturnType<typeof createLinksService>;
