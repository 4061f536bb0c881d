import { defineQueue, type GiveUpReason, type JobContext, type Jobs } from '../../platform/jobs/jobs.ts';

/** A list's import: its file parsed and its contacts stored (`lists.service.ts` enqueues it with the list). */
export const listImportQueue = defineQueue<{ listId: string }>('lists.import', {
  retryLimit: 2,
  retryDelaySeconds: 5,
  expireInSeconds: 15 * 60,
});

/**
 * The import queue. One import at a time per process (an import keeps a core busy); a job
 * whose process died returns to the queue (at the next start on PGlite, when its lease expires
 * on PostgreSQL) and starts over cleanly; one that took its process down twice is quarantined
 * and its list fails with IMPORT_CRASHED.
 */
export function defineListsJobs(
  jobs: Jobs,
  lists: {
    runImport(listId: string, job: JobContext): Promise<void>;
    giveUpImport(listId: string, reason: GiveUpReason): Promise<void>;
  },
): void {
  jobs.work(listImportQueue, {
    handler: (data, job) => lists.runImport(data.listId, job),
    onGiveUp: (data, reason) => lists.giveUpImport(data.listId, reason),
    concurrency: 1,
  });
}
