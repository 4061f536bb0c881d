import type { Jobs } from '../../platform/jobs/jobs.ts';
import { IMPORT_QUEUE, type ListsService } from './lists.service.ts';

/**
 * The import queue. One import at a time per process (an import keeps a core busy); a job
 * whose process died returns to the queue (at the next start on PGlite, when its lease expires
 * on PostgreSQL) and starts over cleanly; one that took its process down twice is quarantined
 * and its list fails with IMPORT_CRASHED.
 */
export function defineListsJobs(jobs: Jobs, lists: Pick<ListsService, 'runImport' | 'giveUpImport'>): void {
  jobs.define<{ listId: string }>({
    name: IMPORT_QUEUE,
    handler: (data, job) => lists.runImport(data.listId, job),
    onGiveUp: (data, reason) => lists.giveUpImport(data.listId, reason),
    concurrency: 1,
    retryLimit: 2,
    retryDelaySeconds: 5,
    expireInSeconds: 15 * 60,
  });
}
