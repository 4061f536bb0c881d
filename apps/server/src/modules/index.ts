import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { loadAuthSecret } from '../platform/auth/crypto.ts';
import { type AuthGuard, createAuthGuard } from '../platform/auth/guard.ts';
import { type Clock, systemClock } from '../platform/clock/clock.ts';
import type { Config } from '../platform/config/config.ts';
import type { DbHandle } from '../platform/db/client.ts';
import { customerUrlPoster } from '../platform/http/outbound.ts';
import { createUploadStorage } from '../platform/http/upload-storage.ts';
import type { Jobs } from '../platform/jobs/jobs.ts';
import type { Logger } from '../platform/logger.ts';
import { createMailer, type Mailer } from '../platform/mail/mailer.ts';
import { createAccountRepository } from './account/account.repository.ts';
import { registerAccountRoutes } from './account/account.routes.ts';
import { type AccountService, createAccountService, MAX_IMAGE_PIXELS } from './account/account.service.ts';
import { createAvatarStorage } from './account/avatar-storage.ts';
import { createProfileImages } from './account/profile-images.ts';
import { createAdminUsersRepository } from './admin-users/admin-users.repository.ts';
import { registerAdminUsersRoutes } from './admin-users/admin-users.routes.ts';
import { type AdminUsersService, createAdminUsersService } from './admin-users/admin-users.service.ts';
import { createAudioStorage } from './audios/audio-storage.ts';
import { createAudiosRepository } from './audios/audios.repository.ts';
import { registerAudiosRoutes } from './audios/audios.routes.ts';
import { type AudiosService, createAudiosService } from './audios/audios.service.ts';
import { createPlaybackTokens } from './audios/playback-token.ts';
import { createAuditRepository } from './audit/audit.repository.ts';
import { createAuthRepository } from './auth/auth.repository.ts';
import { registerAuthRoutes } from './auth/auth.routes.ts';
import { type AuthService, createAuthService } from './auth/auth.service.ts';
import { createDispatcher, type Dispatcher } from './campaigns/campaigns.dispatcher.ts';
import { defineCampaignsJobs } from './campaigns/campaigns.jobs.ts';
import { createCampaignReportsRepository } from './campaigns/campaigns.reports.repository.ts';
import { registerCampaignReportRoutes } from './campaigns/campaigns.reports.routes.ts';
import { createCampaignReports } from './campaigns/campaigns.reports.service.ts';
import { createCampaignsRepository } from './campaigns/campaigns.repository.ts';
import { registerCampaignsRoutes } from './campaigns/campaigns.routes.ts';
import { type CampaignsService, createCampaignsService } from './campaigns/campaigns.service.ts';
import { type CampaignSupervisor, createCampaignSupervisor } from './campaigns/campaigns.supervisor.ts';
import { defineChannelsJobs } from './channels/channels.jobs.ts';
import { createChannelsRepository } from './channels/channels.repository.ts';
import { registerChannelsRoutes } from './channels/channels.routes.ts';
import { type ChannelsService, createChannelsService } from './channels/channels.service.ts';
import { registerProviderWebhooks } from './channels/channels.webhooks.ts';
import { createMessageCounts } from './channels/message-counts.ts';
import { createMessagesPerDay } from './channels/messages-per-day.ts';
import type { ProviderRegistry } from './channels/providers/registry.ts';
import { registerCheckoutRoutes } from './checkout/checkout.routes.ts';
import { type CheckoutService, createCheckoutService } from './checkout/checkout.service.ts';
import { choosePaymentProvider } from './checkout/providers/index.ts';
import { type CnpjBaseModule, createCnpjBase } from './cnpj-base/cnpj-base.module.ts';
import { createDashboardRepository } from './dashboard/dashboard.repository.ts';
import { registerDashboardRoutes } from './dashboard/dashboard.routes.ts';
import { createDashboardService } from './dashboard/dashboard.service.ts';
import { defineEnrichmentJobs } from './enrichment/enrichment.jobs.ts';
import { createEnrichmentRepository } from './enrichment/enrichment.repository.ts';
import { registerEnrichmentRoutes } from './enrichment/enrichment.routes.ts';
import { createEnrichmentService, type EnrichmentService } from './enrichment/enrichment.service.ts';
import { createLedgerRepository } from './ledger/ledger.repository.ts';
import { registerLedgerRoutes } from './ledger/ledger.routes.ts';
import { createLedgerService, type LedgerService } from './ledger/ledger.service.ts';
import { type ClickRecorder, createClickRecorder } from './links/links.clicks.ts';
import { createHop } from './links/links.hop.ts';
import { createLinkCache } from './links/links.hop-cache.ts';
import { registerHopRoute } from './links/links.public.ts';
import { createLinksRepository } from './links/links.repository.ts';
import { registerLinksRoutes } from './links/links.routes.ts';
import { createLinksService, type LinksService } from './links/links.service.ts';
import { createTrackedLinksRepository } from './links/links.tracked.repository.ts';
import { createTrackedLinksAdmin } from './links/links.tracked-admin.ts';
import { createDirectListsRepository } from './lists/lists.direct.repository.ts';
import { defineListsJobs } from './lists/lists.jobs.ts';
import { createListsRepository } from './lists/lists.repository.ts';
import { registerListsRoutes } from './lists/lists.routes.ts';
import { createListsService, type ListsService } from './lists/lists.service.ts';
import { registerMetrics } from './metrics/metrics.module.ts';
import { createOptOutsRepository } from './opt-outs/opt-outs.repository.ts';
import { registerOptOutsRoutes } from './opt-outs/opt-outs.routes.ts';
import { createOptOutsService, type OptOutsService } from './opt-outs/opt-outs.service.ts';
import { createUsersRepository } from './users/users.repository.ts';
import { registerUsersRoutes } from './users/users.routes.ts';
import { createUsersService, type UsersService } from './users/users.service.ts';

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
};

export type ComposedModules = {
  clock: Clock;
  mailer: Mailer;
  auth: AuthService;
  /** `guard.requireUser` / `guard.requireAdmin`: the `onRequest` hooks every guarded route names. */
  guard: AuthGuard;
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
  links: LinksService;
  /** The hop's clicks waiting to be written (a clean shutdown writes them). */
  linkClicks: ClickRecorder;
  /** Keeps campaigns moving across crashes and schedules; started by the processes that work jobs. */
  supervisor: CampaignSupervisor;
  dispatcher: Dispatcher;
  /** The Receita's CNPJ base (enrichment's data): its state and refresh, for administrators. */
  cnpjBase: CnpjBaseModule;
  registerRoutes(app: FastifyInstance): Promise<void>;
};

/**
 * The composition root: builds each feature's service from its explicit dependencies,
 * registers its job workers, and returns the routes to mount. The server and the worker
 * both call it, so a job defined here runs in either process.
 */
export function composeModules(deps: ModuleDeps): ComposedModules {
  const { config, logger } = deps;
  const db = deps.db.db;
  const clock = deps.clock ?? systemClock;
  // Keys the login codes' hashes, the audios' playback links and the link visitors' hashes.
  const appSecret = loadAuthSecret(config.authSecret, config.dataDir);
  const mailer =
    deps.mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, logger });

  // The money core: balances, ledger, transfers, payments (sign-up grants the welcome bonus).
  const ledger = createLedgerService({ repo: createLedgerRepository(db), clock });
  // Card purchases: Stripe when STRIPE_SECRET_KEY is set, else the built-in test checkout page
  // for a local trial or CHECKOUT_TEST_MODE, else none (config.cardPayments).
  const checkout = createCheckoutService({
    ledger,
    provider: choosePaymentProvider(config),
    publicUrl: config.publicUrl,
    logger,
  });

  // users ⇄ auth: sign-in returns the user's public shape; deactivation ends the sessions.
  const authRepo = createAuthRepository(db);
  let auth: AuthService | undefined;
  const users = createUsersService({
    db,
    repo: createUsersRepository(db),
    clock,
    logger,
    publicUrl: config.publicUrl,
    getMoneyBalanceCentavos: ledger.getMoneyBalanceCentavos,
    // In the sign-up transaction: the account and its welcome bonus exist together or not at all.
    onUserCreated: async (user, tx) => {
      await ledger.grantWelcomeBonus(user.id, { tx });
    },
    endAllSessions: (userId, tx) => auth!.endAllSessions(userId, tx),
    allowSignup: (meta) => auth!.allowSignup(meta),
    authenticateWith: (token, lookup) => auth!.authenticateWith(token, lookup),
  });
  auth = createAuthService({
    repo: authRepo,
    mailer,
    clock,
    secret: appSecret,
    logger,
    loadUser: users.getPublicUser,
  });
  const guard = createAuthGuard({ sessions: auth });
  // The user's own settings: profile, picture (DATA_DIR/avatars), sessions (the auth module's).
  const account = createAccountService({
    repo: createAccountRepository(db),
    images: createProfileImages({ maxPixels: MAX_IMAGE_PIXELS }),
    avatars: createAvatarStorage(config.dataDir),
    sessions: auth,
    publicUrl: config.publicUrl,
    logger,
  });

  // Administrators' actions on users, campaigns and links, each in the transaction of the change.
  const auditRepo = createAuditRepository(db);
  // User administration: every change is audited; deactivation ends the user's sessions at once.
  const adminUsers = createAdminUsersService({
    db,
    repo: createAdminUsersRepository(db),
    audit: auditRepo,
    logger,
    endAllSessions: (userId, tx) => auth!.endAllSessions(userId, tx),
    // A page's balances in one query.
    moneyBalances: ledger.getMoneyBalancesCentavos,
  });

  // Contact lists: uploads wait in DATA_DIR/uploads for their import job; opt-outs are account-wide.
  const storage = createUploadStorage(config.dataDir);
  const lists = createListsService({ repo: createListsRepository(deps.db), jobs: deps.jobs, clock, storage, logger });
  defineListsJobs(deps.jobs, lists);
  const optOuts = createOptOutsService({ repo: createOptOutsRepository(deps.db), storage });

  // Enrichment: CNPJs looked up in the CNPJ base, paid per hit; results become contact lists.
  const enrichment = createEnrichmentService({
    db,
    repo: createEnrichmentRepository(db),
    ledger,
    jobs: deps.jobs,
    enrichmentPermissions: users.enrichmentPermissions,
    createList: createDirectListsRepository(db).createFromContacts,
    clock,
  });
  defineEnrichmentJobs(deps.jobs, enrichment);

  const campaignsRepo = createCampaignsRepository(db);
  const channelsRepo = createChannelsRepository(db);
  // Audios for voice campaigns (DATA_DIR/audios); signed playback links for the carrier.
  const audioStorage = createAudioStorage(config.dataDir);
  const audios = createAudiosService({
    repo: createAudiosRepository(db),
    storage: audioStorage,
    clock,
    tokens: createPlaybackTokens(appSecret),
    publicUrl: config.publicUrl,
    // A scheduled, running or paused campaign still plays it.
    audioInUse: (userId, audioId, tx) => campaignsRepo.audioInUse(userId, audioId, tx),
    logger,
  });

  // Channels: test sends and every carrier's receipts and replies (messages, their history, opt-out words).
  const channels = createChannelsService({
    db,
    repo: channelsRepo,
    providers: deps.providers,
    ledger,
    optOuts,
    audioUrl: (userId, audioId) => audios.playbackUrl(userId, audioId),
    jobs: deps.jobs,
    clock,
    logger,
  });
  for (const provider of deps.providers.all()) provider.onEvent((event) => channels.handleEvent(event));
  defineChannelsJobs(deps.jobs, {
    channels,
    post: customerUrlPoster(config),
    purgeEarlyReceipts: () => channelsRepo.purgeEarlyReceipts(),
    foldMessageCounts: () => createMessageCounts(deps.db).fold(),
    logger,
  });

  // Rotating links' storage (campaigns check a tracked `{link}` against it).
  const linksRepo = createLinksRepository(db);

  // Rotating links: the owner's links and stats, the public hop, clicks written in the background.
  const liveLinks = createLinkCache({ load: (slug) => linksRepo.findLive(slug) });
  const links = createLinksService({
    db,
    repo: linksRepo,
    audit: (entry, tx) => auditRepo.record({ ...entry, subjectType: 'link' }, tx),
    publicUrl: config.publicUrl,
    forget: liveLinks.forget,
    clock,
  });
  // Campaigns: drafts, the start's snapshot and reservation, the dispatchers, the supervisor.
  const workerId = randomUUID();
  // A batch's outcomes, written set-based by the channels module.
  const store = {
    recordSubmittedBatch: channelsRepo.recordSubmittedBatch,
    settleBatch: channelsRepo.settleBatch,
    inflightBatch: channels.inflightBatch,
  };
  let supervisor: CampaignSupervisor | undefined;
  // The dispatcher is made after the service it calls; the service's pause and cancel reach it through this.
  let haltDispatch: (campaignId: string) => void = () => {};
  const campaigns = createCampaignsService({
    db,
    repo: campaignsRepo,
    ledger,
    providers: deps.providers,
    audioExists: audios.exists,
    jobs: deps.jobs,
    audit: (entry, tx) => auditRepo.record({ ...entry, subjectType: 'campaign' }, tx),
    rotatingLinkExists: links.exists,
    publicUrl: config.publicUrl,
    liveWorkers: () => supervisor?.liveWorkers() ?? 1,
    halt: (campaignId) => haltDispatch(campaignId),
    lockAudio: audios.lockShared,
    clock,
    logger,
  });
  const dispatcher = createDispatcher({
    db,
    repo: campaignsRepo,
    store,
    ledger,
    providers: deps.providers,
    optOuts,
    audioUrl: (userId, audioId) => audios.playbackUrl(userId, audioId),
    lifecycle: campaigns,
    afterReceipt: (event, messageId) => channels.afterReceipt(event, messageId),
    jobs: deps.jobs,
    liveWorkers: () => supervisor?.liveWorkers() ?? 1,
    workerId,
    clock,
    logger,
  });
  haltDispatch = dispatcher.halt;
  defineCampaignsJobs(deps.jobs, dispatcher);
  supervisor = createCampaignSupervisor({
    db,
    repo: campaignsRepo,
    store,
    ledger,
    lifecycle: campaigns,
    dispatcher,
    sweepEarlyReceipts: () => channels.sweepEarlyReceipts(),
    workerId,
    singleProcess: deps.db.kind === 'pglite',
    clock,
    logger,
  });

  // What the campaign screens and the home page read.
  const reportsRepo = createCampaignReportsRepository(db);
  const reports = createCampaignReports({
    repo: reportsRepo,
    campaigns: campaignsRepo,
    clock,
    publicUrl: config.publicUrl,
  });
  const dashboard = createDashboardService({
    repo: createDashboardRepository(db),
    campaigns: reportsRepo,
    ledger,
    messagesPerDay: createMessagesPerDay(db).since,
    clock,
  });

  const trackedAdmin = createTrackedLinksAdmin({
    db,
    repo: createTrackedLinksRepository(db),
    audit: (entry, tx) => auditRepo.record({ ...entry, subjectType: 'campaign' }, tx),
    clock,
  });
  const linkClicks = createClickRecorder({ insert: (clicks) => linksRepo.insertClicks(clicks), logger });
  const hop = createHop({ repo: linksRepo, links: liveLinks, clicks: linkClicks, secret: appSecret, clock });

  // CNPJ base: the Receita's open data, refreshed by the import job (or `npm run cnpj:import`).
  const cnpjBase = createCnpjBase({ db: deps.db, jobs: deps.jobs, clock, logger });

  return {
    cnpjBase,
    campaigns,
    links,
    linkClicks,
    supervisor,
    dispatcher,
    clock,
    mailer,
    auth,
    guard,
    users,
    account,
    lists,
    optOuts,
    audios,
    channels,
    ledger,
    enrichment,
    checkout,
    adminUsers,
    async registerRoutes(app) {
      app.decorateRequest('user', undefined);
      // First, so its response hook reaches every module's routes (issue 14, METRICS_TOKEN).
      registerMetrics(app, { token: config.metricsToken, db: deps.db, providers: deps.providers, logger });
      registerAuthRoutes(app, { auth: auth! });
      registerUsersRoutes(app, { users });
      await registerAccountRoutes(app, { account, guard });
      await registerListsRoutes(app, { lists, storage, guard });
      await registerEnrichmentRoutes(app, { enrichment, storage, guard });
      await registerOptOutsRoutes(app, { optOuts, storage, guard });
      await registerAudiosRoutes(app, { audios, storage: audioStorage, guard });
      registerChannelsRoutes(app, { channels, guard });
      registerCampaignsRoutes(app, { campaigns, guard });
      registerCampaignReportRoutes(app, { reports, guard });
      registerDashboardRoutes(app, { dashboard, guard });
      registerLinksRoutes(app, { links, trackedAdmin, guard });
      registerHopRoute(app, { hop, clock, clicksPerIpPerMinute: config.linkClicksPerIpPerMinute });
      await registerProviderWebhooks(app, { providers: deps.providers.all(), publicUrl: config.publicUrl });
      registerLedgerRoutes(app, { ledger, guard });
      registerCheckoutRoutes(app, { checkout, guard });
      registerAdminUsersRoutes(app, { service: adminUsers, guard });
      cnpjBase.registerRoutes(app, guard);
      if (checkout.cardPayments === 'test') {
        logger.warn('STRIPE_SECRET_KEY is not set: card purchases use the built-in TEST checkout (no real charge)');
      } else if (checkout.cardPayments === 'unavailable') {
        logger.warn(
          'card payments are not configured: set STRIPE_SECRET_KEY (CHECKOUT_TEST_MODE=true offers the test checkout)',
        );
      }
      // ADMIN_EMAIL (runtime contract): on start, that account exists and is an active administrator.
      if (config.adminEmail) await users.ensureAdmin(config.adminEmail);
    },
  };
}
