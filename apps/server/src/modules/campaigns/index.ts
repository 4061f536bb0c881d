/**
 * The campaigns module's public surface: its service, and what the home page reads of the
 * campaigns (the reports' repository and a campaign's summary). The dispatcher and supervisor
 * are wired by the composition root (modules/index.ts).
 */
export type { CampaignReportsRepository } from './campaigns.reports.repository.ts';
export { toSummary } from './campaigns.reports.service.ts';
export { type CampaignsService, createCampaignsService } from './campaigns.service.ts';
