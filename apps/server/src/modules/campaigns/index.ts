/**
 * The campaigns module's public surface: what the home page reads of the campaigns (the reports'
 * repository and a campaign's summary). The service, dispatcher and supervisor are wired by the
 * composition root (modules/index.ts).
 */
export type { CampaignReportsRepository } from './campaigns.reports.repository.ts';
export { toSummary } from './campaigns.reports.service.ts';
