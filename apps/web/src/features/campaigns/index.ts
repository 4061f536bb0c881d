/** What other features use of the campaigns: the dashboard's table, summary and polling pace. */

export { CampaignsTable } from './CampaignsTable';
export { campaignsApi } from './campaignsApi';
export { campaignsPollInterval, summaryPollFacts } from './pollInterval';
