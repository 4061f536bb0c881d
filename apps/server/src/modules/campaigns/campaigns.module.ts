/**
 * Campaigns as the composition root wires them: drafts, the start's snapshot and reservation,
 * this process's dispatcher (its loops are jobs), the supervisor that keeps campaigns moving
 * across crashes and schedules (started by the processes that work jobs), and the read side the
 * campaign screens and the home page use.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../platform/clock/clock.ts';
import type { DbHandle } from '../../platform/db/client.ts';
import type { RegisterRoutes } from '../../platform/http/module-routes.ts';
import type { Jobs } from '../../platform/jobs/jobs.ts';
import type { Logger } from '../../platform/logger.ts';
import { createProcessShare, type ProcessShare } from '../../platform/pacing/process-share.ts';
import type { AudioInUse, AudiosService } from '../audios/index.ts';
import type { AuditRepository } from '../audit/index.ts';
import type { ChannelsService, MessageTallies, ProviderRegistry } from '../channels/index.ts';
import type { LedgerService } from '../ledger/index.ts';
import type { OptOutsService } from '../opt-outs/index.ts';
import { createApiMessagesRepository } from './campaigns.api-messages.repository.ts';
import { type ApiSends, createApiSends } from './campaigns.api-sends.ts';
import { createDispatcher, type Dispatcher, type RecipientStore } from './campaigns.dispatcher.ts';
import { defineCampaignsJobs } from './campaigns.jobs.ts';
import { createCampaignReportsRepository } from './campaigns.reports.repository.ts';
import { registerCampaignReportRoutes } from './campaigns.reports.routes.ts';
import { type CampaignReports, createCampaignReports } from './campaigns.reports.service.ts';
import { createCampaignsRepository } from './campaigns.repository.ts';
import { registerCampaignsRoutes } from './campaigns.routes.ts';
import { type CampaignsService, createCampaignsService } from './campaigns.service.ts';
import type { CampaignStatusListener, CampaignsServiceDeps } from './campaigns.service-deps.ts';
import { type CampaignSupervisor, createCampaignSupervisor } from './campaigns.supervisor.ts';

export type CampaignsModule = {
  service: CampaignsService;
  /** The sending API's requests, queued on the campaign engine (ADR 020). */
  apiSends: ApiSends;
  dispatcher: Dispatcher;
  supervisor: CampaignSupervisor;
  /** What the home page reads of the campaigns. */
  reports: Pick<CampaignReports, 'withProgress'>;
  /** A scheduled, running or paused campaign still plays this audio (the audios module asks before a delete). */
  audioInUse: AudioInUse;
  registerRoutes: RegisterRoutes;
};

export function createCampaignsModule(deps: {
  db: DbHandle;
  publicUrl: string;
  ledger: LedgerService;
  providers: ProviderRegistry;
  optOuts: OptOutsService;
  audios: Pick<AudiosService, 'exists' | 'lockShared' | 'playbackUrl'>;
  rotatingLinkExists: (userId: string, linkId: string) => Promise<boolean>;
  audit: AuditRepository;
  /** Where a batch's outcomes are written, and the receipts' follow-ups (the channels module). */
  channels: {
    batches: RecipientStore;
    tallies: MessageTallies;
    service: Pick<ChannelsService, 'afterReceipt' | 'sweepEarlyReceipts'>;
  };
  jobs: Jobs;
  clock: Clock;
  logger: Logger;
  /** The customer's `campaign.status` webhook. */
  onStatus: CampaignStatusListener;
  /** This process's share of the rates, the same the providers keep to (process-share.ts). */
  share?: ProcessShare;
  /** The carrier accounts this process sends through (startProviders' `carriers`). */
  carriers?: readonly string[];
}): CampaignsModule {
  const { ledger, providers, audios, audit, channels, jobs, clock, logger } = deps;
  const db = deps.db.db;
  const repo = createCampaignsRepository(db);
  const workerId = randomUUID();
  const share = deps.share ?? createProcessShare();
  let supervisor: CampaignSupervisor | undefined;
  // The dispatcher is made after the service it calls; the service's pause and cancel reach it through this.
  let haltDispatch: (campaignId: string) => void = () => {};
  const serviceDeps: CampaignsServiceDeps = {
    db,
    repo,
    ledger,
    providers,
    tallies: channels.tallies,
    audioExists: audios.exists,
    jobs,
    audit: (entry, tx) => audit.record({ ...entry, subjectType: 'campaign' }, tx),
    rotatingLinkExists: deps.rotatingLinkExists,
    publicUrl: deps.publicUrl,
    liveWorkers: () => supervisor?.liveWorkers() ?? 1,
    halt: (campaignId) => haltDispatch(campaignId),
    lockAudio: audios.lockShared,
    clock,
    logger,
    onStatus: deps.onStatus,
  };
  const service = createCampaignsService(serviceDeps);
  const apiSends = createApiSends({
    ...serviceDeps,
    apiRepo: createApiMessagesRepository(db),
    optOuts: deps.optOuts,
    lifecycle: service,
  });
  const dispatcher = createDispatcher({
    db,
    repo,
    store: channels.batches,
    ledger,
    providers,
    optOuts: deps.optOuts,
    audioUrl: (userId, audioId) => audios.playbackUrl(userId, audioId),
    lifecycle: service,
    afterReceipt: (event, messageId) => channels.service.afterReceipt(event, messageId),
    jobs,
    share,
    workerId,
    clock,
    logger,
  });
  haltDispatch = dispatcher.halt;
  defineCampaignsJobs(jobs, dispatcher);
  supervisor = createCampaignSupervisor({
    db,
    repo,
    store: channels.batches,
    ledger,
    lifecycle: service,
    dispatcher,
    sweepEarlyReceipts: () => channels.service.sweepEarlyReceipts(),
    workerId,
    singleProcess: deps.db.kind === 'pglite',
    share,
    carriers: deps.carriers,
    clock,
    logger,
  });
  const reports = createCampaignReports({
    repo: createCampaignReportsRepository(db),
    campaigns: repo,
    tallies: channels.tallies,
    clock,
    publicUrl: deps.publicUrl,
  });
  return {
    service,
    apiSends,
    dispatcher,
    supervisor,
    reports,
    audioInUse: (userId, audioId, tx) => repo.audioInUse(userId, audioId, tx),
    registerRoutes: (app, guard) => {
      registerCampaignsRoutes(app, { campaigns: service, guard });
      registerCampaignReportRoutes(app, { reports, guard });
    },
  };
}
