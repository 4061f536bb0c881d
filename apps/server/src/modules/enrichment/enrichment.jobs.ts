import { defineQueue, type Jobs } from '../../platform/jobs/jobs.ts';

/** An enrichment's lookup in the CNPJ base (`enrichment.service.ts` enqueues it with the enrichment). */
export const enrichmentLookupQueue = defineQueue<{ enrichmentId: string }>('enrichment.lookup', {
  retryLimit: 3,
  retryDelaySeconds: 5,
  expireInSeconds: 15 * 60,
});

/**
 * The lookup queue. A job whose process died runs again (the lookup is idempotent and the
 * credits settle once); one that keeps failing gives up: the enrichment fails and its credits
 * go back.
 */
export function defineEnrichmentJobs(
  jobs: Jobs,
  enrichment: { runLookup(id: string): Promise<void>; giveUp(id: string, reason: string): Promise<void> },
): void {
  jobs.work(enrichmentLookupQueue, {
    handler: (data) => enrichment.runLookup(data.enrichmentId),
    onGiveUp: (data, reason) => enrichment.giveUp(data.enrichmentId, reason.code),
    concurrency: 2,
  });
}
