/**
 * Rotating links as the composition root wires them: the owner's links and stats, campaigns'
 * tracked links for administrators, the public hop (a cache of live links, clicks written in the
 * background: a clean shutdown writes the rest through `clicks`).
 */
import type { Clock } from '../../platform/clock/clock.ts';
import type { DbHandle } from '../../platform/db/client.ts';
import type { RegisterRoutes } from '../../platform/http/module-routes.ts';
import type { Logger } from '../../platform/logger.ts';
import type { AuditRepository } from '../audit/index.ts';
import { type ClickRecorder, createClickRecorder, type OnLinkClicks, type RecordedClick } from './links.clicks.ts';
import { createHop } from './links.hop.ts';
import { createLinkCache } from './links.hop-cache.ts';
import { registerHopRoute } from './links.public.ts';
import { createLinksRepository } from './links.repository.ts';
import { registerLinksRoutes } from './links.routes.ts';
import { createLinksService, type LinksService } from './links.service.ts';
import { createTrackedLinksRepository } from './links.tracked.repository.ts';
import { createTrackedLinksAdmin } from './links.tracked-admin.ts';

export type LinksModule = { service: LinksService; clicks: ClickRecorder; registerRoutes: RegisterRoutes };

export function createLinksModule(deps: {
  db: DbHandle;
  audit: AuditRepository;
  publicUrl: string;
  /** Keys the link visitors' hashes. */
  secret: string;
  clicksPerIpPerMinute?: number;
  clock: Clock;
  logger: Logger;
  /** The clicks of a batch, in the transaction that writes them (the `link.click` webhook). */
  onClicks?: OnLinkClicks;
}): LinksModule {
  const { audit, clock } = deps;
  const db = deps.db.db;
  const repo = createLinksRepository(db);
  const liveLinks = createLinkCache({ load: (slug) => repo.findLive(slug) });
  const service = createLinksService({
    db,
    repo,
    audit: (entry, tx) => audit.record({ ...entry, subjectType: 'link' }, tx),
    publicUrl: deps.publicUrl,
    forget: liveLinks.forget,
    clock,
  });
  const trackedAdmin = createTrackedLinksAdmin({
    db,
    repo: createTrackedLinksRepository(db),
    audit: (entry, tx) => audit.record({ ...entry, subjectType: 'campaign' }, tx),
    clock,
  });
  const onClicks = deps.onClicks;
  const clicks = createClickRecorder<RecordedClick>({
    // With a listener, its events (the webhooks' outbox) are written in the clicks' transaction.
    insert: onClicks
      ? (rows) =>
          db.transaction(async (tx) => {
            await repo.insertClicks(rows, tx);
            await onClicks(
              rows.map((r) => r.clicked),
              tx,
            );
          })
      : (rows) => repo.insertClicks(rows),
    logger: deps.logger,
  });
  const hop = createHop({ repo, links: liveLinks, clicks, secret: deps.secret, clock });
  return {
    service,
    clicks,
    registerRoutes: (app, guard) => {
      registerLinksRoutes(app, { links: service, trackedAdmin, guard });
      registerHopRoute(app, { hop, clock, clicksPerIpPerMinute: deps.clicksPerIpPerMinute });
    },
  };
}
