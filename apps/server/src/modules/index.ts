import type { FastifyInstance } from 'fastify';
import { loadAuthSecret } from '../platform/auth/crypto.ts';
import type { AuthGuard } from '../platform/auth/guard.ts';
import { type Clock, systemClock } from '../platform/clock/clock.ts';
import type { Config } from '../platform/config/config.ts';
import type { DbHandle } from '../platform/db/client.ts';
import { defineDatabaseMaintenance } from '../platform/db/maintenance.ts';
import type { RegisterRoutes } from '../platform/http/module-routes.ts';
import { createUploadStorage } from '../platform/http/upload-storage.ts';
import type { Jobs } from '../platform/jobs/jobs.ts';
import type { Logger } from '../platform/logger.ts';
import { createMailer, type Mailer } from '../platform/mail/mailer.ts';
import type { ProcessShare } from '../platform/pacing/process-share.ts';
import { type AccountService, createAccountModule } from './account/index.ts';
import { type AdminUsersService, createAdminUsersModule } from './admin-users/index.ts';
import { type ApiKeysService, createApiKeysModule } from './api-keys/index.ts';
import { type AudiosService, createAudiosModule } from './audios/index.ts';
import { createAuditModule } from './audit/index.ts';
import { type AuthModule, type AuthService, createAuthModule } from './auth/index.ts';
import { type CampaignsModule, type CampaignsService, createCampaignsModule } from './campaigns/index.ts';
import { type ChannelsService, createChannelsModule, type ProviderRegistry } from './channels/index.ts';
import { type CheckoutService, createCheckoutModule } from './checkout/index.ts';
import { type CnpjBaseModule, createCnpjBaseModule } from './cnpj-base/index.ts';
import { createDashboardModule } from './dashboard/index.ts';
import { createEnrichmentModule, type EnrichmentService } from './enrichment/index.ts';
import { createHealthModule } from './health/index.ts';
import { createLedgerModule, type LedgerService } from './ledger/index.ts';
import { createLinksModule, type LinksModule, type LinksService } from './links/index.ts';
import { createListsModule, type ListsService } from './lists/index.ts';
import { createMessagesApiModule } from './messages-api/index.ts';
import { createMetricsModule } from './metrics/index.ts';
import { createOptOutsModule, type OptOutsService } from './opt-outs/index.ts';
import { createRepliesModule, type RepliesService } from './replies/index.ts';
// Not through its index: the users service needs the auth index, whose tables need the users index.
import { createUsersModule } from './users/users.module.ts';
import type { UsersService } from './users/users.service.ts';
import { createWebhooksModule, type WebhooksModule } from './webhooks/index.ts';

export type ModuleDeps = {
  config: Config;
  db: DbHandle;
  jobs: Jobs;
  logger: Logger;
  /** "Now" for every service; tests pass a manual clock to move time. */
  clock?: Clock;
  /** Replaces the mailer built from the config (tests may capture mail instead of reading the outbox). */
  mailer?: Mailer;
  /** The carriers of the six channels, started by the caller (real or their simulators: providers/index.ts). */
  providers: ProviderRegistry;
  /** This process's share of the carriers' rates: the providers' (startProviders) and the dispatcher's must be one. */
  share?: ProcessShare;
  /** The carrier accounts this process sends through (startProviders' `carriers`): rates are shared with processes using the same. */
  carriers?: readonly string[];
};

export type ComposedModules = {
  clock: Clock;
  mailer: Mailer;
  auth: AuthService;
  /** `guard.requireUser` / `guard.requireAdmin` / `guard.requireScope(…)`: the `onRequest` hooks every guarded route gets from `routeOptions`. */
  guard: AuthGuard;
  apiKeys: ApiKeysService;
  users: UsersService;
  account: AccountService;
  lists: ListsService;
  optOuts: OptOutsService;
  audios: AudiosService;
  channels: ChannelsService;
  ledger: LedgerService;
  enrichment: EnrichmentService;
  checkout: CheckoutService;
  adminUsers: AdminUsersService;
  campaigns: CampaignsService;
  /** The sending API's requests on the campaign engine (the bench times its phases). */
  apiSends: CampaignsModule['apiSends'];
  links: LinksService;
  replies: RepliesService;
  /** The hop's clicks waiting to be written (a clean shutdown writes them). */
  linkClicks: LinksModule['clicks'];
  /** Keeps campaigns moving across crashes and schedules; started by the processes that work jobs. */
  supervisor: CampaignsModule['supervisor'];
  dispatcher: CampaignsModule['dispatcher'];
  /** The Receita's CNPJ base (enrichment's data): its state and refresh, for administrators. */
  cnpjBase: CnpjBaseModule;
  /** Webhooks to the customer: `publish`, and the delivery loop the processes that work jobs start. */
  webhooks: WebhooksModule;
  registerRoutes(app: FastifyInstance): Promise<void>;
};

/**
 * The composition root: each module built from the platform and the modules it depends on (it
 * builds its own repositories and services and defines its job workers), then their routes
 * mounted in one order. The server and the worker both call it, so a job defined here runs in
 * either process.
 */
export function composeModules(deps: ModuleDeps): ComposedModules {
  const { config, db, jobs, logger, providers } = deps;
  const clock = deps.clock ?? systemClock;
  const { publicUrl, dataDir } = config;
  // Keys the login codes' hashes, the audios' playback links and the link visitors' hashes.
  const secret = loadAuthSecret(config.authSecret, dataDir);
  const mailer = deps.mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir, logger });
  // Uploads (lists, opt-outs, enrichment) wait in DATA_DIR/uploads for their import job.
  const storage = createUploadStorage(dataDir);

  // Built first: every module that reports events to the customer publishes through it.
  const webhooks = createWebhooksModule({ db, config, clock, logger, mailer });
  const ledger = createLedgerModule({ db, clock, balanceMoved: webhooks.balanceMoved });
  const checkout = createCheckoutModule({ config, ledger: ledger.service, logger });
  // users ⇄ auth: sign-in returns the user's public shape; deactivation ends the sessions.
  let auth: AuthModule | undefined;
  const users = createUsersModule({ db, clock, logger, publicUrl, ledger: ledger.service, auth: () => auth!.service });
  // The developers' keys: the guard authenticates `ecoa_…` tokens through them.
  const apiKeys = createApiKeysModule({ db, clock, logger });
  auth = createAuthModule({
    db,
    mailer,
    clock,
    secret,
    logger,
    loadUser: users.service.getPublicUser,
    apiKeys: apiKeys.service,
  });
  const sessions = auth.service;
  const account = createAccountModule({ db, dataDir, publicUrl, sessions, logger });
  const audit = createAuditModule({ db }).service;
  const adminUsers = createAdminUsersModule({
    db,
    audit,
    sessions,
    apiKeys: apiKeys.service,
    ledger: ledger.service,
    logger,
  });
  const lists = createListsModule({ db, jobs, clock, storage, logger });
  const optOuts = createOptOutsModule({ db, storage });
  const enrichment = createEnrichmentModule({
    db,
    jobs,
    clock,
    storage,
    ledger: ledger.service,
    enrichmentPermissions: users.service.enrichmentPermissions,
    createList: lists.createFromContacts,
  });
  // audios ⇄ campaigns: a campaign plays an audio; a delete asks whether a campaign still does.
  let campaigns: CampaignsModule | undefined;
  const audios = createAudiosModule({
    db,
    dataDir,
    publicUrl,
    secret,
    clock,
    logger,
    audioInUse: (userId, audioId, tx) => campaigns!.audioInUse(userId, audioId, tx),
  });
  const channels = createChannelsModule({
    db,
    config,
    providers,
    ledger: ledger.service,
    optOuts: optOuts.service,
    audioUrl: (userId, audioId) => audios.service.playbackUrl(userId, audioId),
    jobs,
    clock,
    logger,
    events: webhooks.sources,
  });
  const links = createLinksModule({
    db,
    audit,
    publicUrl,
    secret,
    clock,
    logger,
    clicksPerIpPerMinute: config.linkClicksPerIpPerMinute,
    onClicks: webhooks.sources.onLinkClicks,
  });
  campaigns = createCampaignsModule({
    db,
    publicUrl,
    ledger: ledger.service,
    providers,
    optOuts: optOuts.service,
    audios: audios.service,
    rotatingLinkExists: links.service.exists,
    audit,
    channels,
    jobs,
    clock,
    logger,
    onStatus: webhooks.sources.onCampaignStatus,
    share: deps.share,
    carriers: deps.carriers,
  });
  const messagesApi = createMessagesApiModule({
    db,
    apiSends: campaigns.apiSends,
    messagesList: channels.messagesList,
    jobs,
    clock,
    logger,
  });
  const dashboard = createDashboardModule({
    db,
    campaigns: campaigns.reports,
    ledger: ledger.service,
    clock,
    messagesPerDay: (userId, since) => channels.tallies.perDay(userId, since),
  });
  // The Receita's open data, refreshed by the import job (or `npm run cnpj:import`).
  const cnpjBase = createCnpjBaseModule({ db, jobs, clock, logger });
  // The replies inbox: the replies channels stored, answered through its paid send.
  const replies = createRepliesModule({ inbox: channels.replies, channels: channels.service, clock });
  const metrics = createMetricsModule({
    token: config.metricsToken,
    db,
    providers,
    messageCounts: channels.messageCounts,
    logger,
  });
  // VACUUM and ANALYZE where the database does not do them itself (PGlite; autovacuum off).
  defineDatabaseMaintenance(jobs, { db, logger });
  // Health and the public settings: what anyone may ask, with no session.
  const health = createHealthModule({ db, config });

  // Mounted in this order: health first (the API document lists it first), then metrics, whose
  // response hook reaches every module's routes (and health's: its test checks).
  const routes: RegisterRoutes[] = [
    health.registerRoutes,
    metrics.registerRoutes,
    auth.registerRoutes,
    users.registerRoutes,
    account.registerRoutes,
    apiKeys.registerRoutes,
    lists.registerRoutes,
    enrichment.registerRoutes,
    optOuts.registerRoutes,
    audios.registerRoutes,
    channels.registerRoutes,
    campaigns.registerRoutes,
    messagesApi.registerRoutes,
    dashboard.registerRoutes,
    links.registerRoutes,
    replies.registerRoutes,
    channels.registerWebhooks,
    ledger.registerRoutes,
    checkout.registerRoutes,
    adminUsers.registerRoutes,
    cnpjBase.registerRoutes,
    webhooks.registerRoutes,
  ];
  const { guard } = auth;

  return {
    clock,
    mailer,
    auth: auth.service,
    guard,
    apiKeys: apiKeys.service,
    users: users.service,
    account: account.service,
    lists: lists.service,
    optOuts: optOuts.service,
    audios: audios.service,
    channels: channels.service,
    ledger: ledger.service,
    enrichment: enrichment.service,
    checkout: checkout.service,
    adminUsers: adminUsers.service,
    campaigns: campaigns.service,
    apiSends: campaigns.apiSends,
    links: links.service,
    replies: replies.service,
    linkClicks: links.clicks,
    supervisor: campaigns.supervisor,
    dispatcher: campaigns.dispatcher,
    cnpjBase,
    webhooks,
    async registerRoutes(app) {
      app.decorateRequest('user', undefined);
      for (const register of routes) await register(app, guard);
      // ADMIN_EMAIL (runtime contract): on start, that account exists and is an active administrator.
      if (config.adminEmail) await users.service.ensureAdmin(config.adminEmail);
    },
  };
}
