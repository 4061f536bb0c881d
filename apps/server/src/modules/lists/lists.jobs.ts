import type { Jobs } from '../../platform/jobs/jobs.ts';
import { IMPORT_QUEUE, type ListsService } from './lists.service.ts';

/**
 * The import queue. One import at a time per process (an import keeps a core busy); a job
 * whose process died returns to the queue when its lease expires and starts over cleanly.
 */
export function defineListsJobs(jobs: Jobs, lists: Pick<ListsService, 'runImport'>): void {
  jobs.define<{ listId: string }>({
    name: IMPORT_QUEUE,
    handler: (data) => lists.runImport(data.listId),
    concurrency: 1,
    retryLimit: 2,
    retryDelaySeconds: 5,
    expireInSeconds: 15 * 60,
  });
}
