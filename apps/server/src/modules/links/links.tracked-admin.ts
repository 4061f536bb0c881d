/**
 * The administrators' view of campaigns' tracked links: the list, and turning a campaign's
 * tracked links off (abuse: its recipients then get the friendly page) or on again, audited.
 */
import type { AdminTrackedLink, AdminTrackedLinkList } from '@ecoa/shared';
import type { Clock } from '../../platform/clock/clock.ts';
import type { Database } from '../../platform/db/client.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { setDisabledAudited } from './links.disable.ts';
import type { LinksServiceDeps } from './links.service.ts';
import type { TrackedLinkRow, TrackedLinksRepository } from './links.tracked.repository.ts';

function dtoOf(r: TrackedLinkRow): AdminTrackedLink {
  return {
    id: r.id,
    campaign: { id: r.id, name: r.name, status: r.status },
    destination: {
      rotatingLink:
        r.rotatingLinkId && r.rotatingLinkSlug
          ? { id: r.rotatingLinkId, name: r.rotatingLinkName ?? '', slug: r.rotatingLinkSlug }
          : null,
      url: r.url,
    },
    user: { id: r.userId, name: r.userName, email: r.userEmail, company: r.userCompany },
    recipients: r.recipients,
    clicks: r.clicks,
    clickers: r.clickers,
    disabled: r.disabledAt !== null,
    disabledReason: r.disabledReason,
    createdAt: r.createdAt.toISOString(),
  };
}

export function createTrackedLinksAdmin(deps: {
  db: Database;
  repo: TrackedLinksRepository;
  audit: LinksServiceDeps['audit'];
  clock: Clock;
}) {
  const { repo } = deps;
  return {
    async list(query: { q?: string; page: number; pageSize: number }): Promise<AdminTrackedLinkList> {
      const { rows, total } = await repo.page(query);
      return { items: rows.map(dtoOf), total, page: query.page, pageSize: query.pageSize };
    },

    async setDisabled(actorId: string, id: string, disabled: boolean, reason: string | undefined) {
      const found = await repo.find(id);
      if (!found) throw new AppError('LINK_NOT_FOUND');
      await setDisabledAudited(deps, { actorId, kind: 'tracked_link', target: found, disabled, reason });
      const [row] = (await repo.page({ q: undefined, page: 1, pageSize: 1, id })).rows;
      return dtoOf(row!);
    },
  };
}

export type TrackedLinksAdmin = ReturnType<typeof createTrackedLinksAdmin>;
