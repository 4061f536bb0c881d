/**
 * The campaigns module's public surface: the module as the composition root builds it (service,
 * dispatcher, supervisor, routes), its service, and what the home page reads of the campaigns (their
 * progress and a campaign's summary).
 */
export type {
  ApiAccepted,
  ApiContent,
  ApiRecipient,
  ApiRejected,
  ApiSends,
  PreparedApiSend,
} from './campaigns.api-sends.ts';
export { type CampaignsModule, createCampaignsModule } from './campaigns.module.ts';
export { type CampaignProgress, type CampaignReports, toSummary } from './campaigns.reports.service.ts';
export { type CampaignsService, createCampaignsService } from './campaigns.service.ts';
