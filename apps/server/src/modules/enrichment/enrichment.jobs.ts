import type { Jobs } from '../../platform/jobs/jobs.ts';
import { ENRICHMENT_QUEUE, type EnrichmentService } from './enrichment.service.ts';

/**
 * The lookup queue. A job whose process died runs again (the lookup is idempotent and the
 * credits settle once); one that keeps failing gives up: the enrichment fails and its credits
 * go back.
 */
export function defineEnrichmentJobs(jobs: Jobs, enrichment: Pick<EnrichmentService, 'runLookup' | 'giveUp'>): void {
  jobs.define<{ enrichmentId: string }>({
    name: ENRICHMENT_QUEUE,
    handler: (data) => enrichment.runLookup(data.enrichmentId),
    onGiveUp: (data, reason) => enrichment.giveUp(data.enrichmentId, reason.code),
    concurrency: 2,
    retryLimit: 3,
    retryDelaySeconds: 5,
    expireInSeconds: 15 * 60,
  });
}
