import { defineQueue, type Jobs } from '../../platform/jobs/jobs.ts';

/**
 * `campaigns.dispatch {campaignId}`: one dispatcher on one campaign. A start queues several (they
 * share the recipients); the supervisor queues more when nobody works on a RUNNING campaign. A
 * failed or quarantined job needs no settling: the supervisor finds its recipients and campaign.
 */
export const dispatchQueue = defineQueue<{ campaignId: string }>('campaigns.dispatch', {
  retryDelaySeconds: 2,
  expireInSeconds: 15 * 60,
});

export function defineCampaignsJobs(
  jobs: Jobs,
  dispatcher: { run(campaignId: string, jobSignal?: AbortSignal): Promise<void> },
  concurrency = 4,
): void {
  jobs.work(dispatchQueue, {
    concurrency,
    handler: (data, job) => dispatcher.run(data.campaignId, job.signal),
  });
}
