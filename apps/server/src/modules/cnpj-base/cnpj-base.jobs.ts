import type { Jobs } from '../../platform/jobs/jobs.ts';
import { CNPJ_IMPORT_QUEUE, type CnpjBaseService, type CnpjImportJob } from './cnpj-base.service.ts';

/**
 * The import queue: one import at a time (it keeps a core and the database busy for a long
 * while). A failed import says why in its row and the handler returns (the administrator starts
 * it again); one cut off by a stop or crash runs again from the start (fresh `_next` tables) at
 * the next start, and one that took its process down twice is quarantined: `onGiveUp` marks it.
 */
export function defineCnpjBaseJobs(jobs: Jobs, service: Pick<CnpjBaseService, 'runImport' | 'giveUpImport'>): void {
  jobs.define<CnpjImportJob>({
    name: CNPJ_IMPORT_QUEUE,
    handler: (data, job) => service.runImport(data, job),
    onGiveUp: (data, reason) => service.giveUpImport(data, reason),
    concurrency: 1,
    retryLimit: 2,
    retryDelaySeconds: 5,
    // The whole Receita base takes a good while; the lease must outlast it.
    expireInSeconds: 12 * 60 * 60,
  });
}
