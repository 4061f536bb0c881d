import type { Jobs } from '../../platform/jobs/jobs.ts';
import { CNPJ_IMPORT_QUEUE, type CnpjBaseService, type CnpjImportJob } from './cnpj-base.service.ts';

/**
 * The import queue: one import at a time (it keeps a core and the database busy for a long
 * while). No retry: a failed import says why in its row and the administrator starts it again;
 * one cut off by a stop or crash fails for good at the next start, and `onGiveUp` marks its row.
 */
export function defineCnpjBaseJobs(jobs: Jobs, service: Pick<CnpjBaseService, 'runImport' | 'giveUpImport'>): void {
  jobs.define<CnpjImportJob>({
    name: CNPJ_IMPORT_QUEUE,
    handler: (data, job) => service.runImport(data, job),
    onGiveUp: (data, reason) => service.giveUpImport(data, reason),
    concurrency: 1,
    retryLimit: 0,
    // The whole Receita base takes a good while; the lease must outlast it.
    expireInSeconds: 12 * 60 * 60,
  });
}
