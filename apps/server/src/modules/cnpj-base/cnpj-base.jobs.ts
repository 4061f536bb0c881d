import { defineQueue, type GiveUpReason, type JobContext, type Jobs } from '../../platform/jobs/jobs.ts';

/** One import of the Receita's files from a folder on the server, into the month it names. */
export type CnpjImportJob = { importId: string; folder: string; referenceMonth: string };

/** The CNPJ base's imports (`cnpj-base.service.ts` enqueues one when an administrator starts it). */
export const cnpjImportQueue = defineQueue<CnpjImportJob>('cnpj-base.import', {
  retryLimit: 2,
  retryDelaySeconds: 5,
  // The whole Receita base takes a good while; the lease must outlast it.
  expireInSeconds: 12 * 60 * 60,
});

/**
 * The import queue: one import at a time (it keeps a core and the database busy for a long
 * while). A failed import says why in its row and the handler returns (the administrator starts
 * it again); one cut off by a stop or crash runs again from the start (fresh `_next` tables) at
 * the next start, and one that took its process down twice is quarantined: `onGiveUp` marks it.
 */
export function defineCnpjBaseJobs(
  jobs: Jobs,
  service: {
    runImport(data: CnpjImportJob, job: JobContext): Promise<void>;
    giveUpImport(data: CnpjImportJob, reason: GiveUpReason): Promise<void>;
  },
): void {
  jobs.work(cnpjImportQueue, {
    handler: (data, job) => service.runImport(data, job),
    onGiveUp: (data, reason) => service.giveUpImport(data, reason),
    concurrency: 1,
  });
}
