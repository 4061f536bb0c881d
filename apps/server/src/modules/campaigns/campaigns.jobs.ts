import type { Jobs } from '../../platform/jobs/jobs.ts';
import type { Dispatcher } from './campaigns.dispatcher.ts';
import { DISPATCH_QUEUE } from './campaigns.service-deps.ts';

/**
 * `campaigns.dispatch {campaignId}`: one dispatcher on one campaign. A start queues several (they
 * share the recipients); the supervisor queues more when nobody works on a RUNNING campaign. A
 * failed or quarantined job needs no settling: the supervisor finds its recipients and campaign.
 */
export function defineCampaignsJobs(jobs: Jobs, dispatcher: Dispatcher, concurrency = 4): void {
  jobs.define<{ campaignId: string }>({
    name: DISPATCH_QUEUE,
    concurrency,
    retryDelaySeconds: 2,
    expireInSeconds: 15 * 60,
    handler: (data, job) => dispatcher.run(data.campaignId, job.signal),
  });
}
