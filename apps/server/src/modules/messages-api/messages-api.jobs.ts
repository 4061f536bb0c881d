import { defineQueue, type Jobs } from '../../platform/jobs/jobs.ts';
import type { Logger } from '../../platform/logger.ts';

/**
 * How long an `Idempotency-Key`'s answer is kept: a client retries within minutes or hours, and a
 * 10,000-message batch's answer is ~1 MB, so the table would otherwise grow with every request.
 */
export const IDEMPOTENCY_KEY_RETENTION_MS = 24 * 60 * 60 * 1000;

/** Every hour, once across processes: the `Idempotency-Key`s older than their retention deleted. */
export const idempotencyPurgeQueue = defineQueue<object>('messages-api.purge-idempotency-keys', {
  schedule: '47 * * * *',
  retryLimit: 2,
  expireInSeconds: 600,
});

export function defineMessagesApiJobs(
  jobs: Jobs,
  deps: { purgeIdempotencyKeys: () => Promise<number>; logger: Logger },
): void {
  jobs.work(idempotencyPurgeQueue, {
    handler: async () => {
      const purged = await deps.purgeIdempotencyKeys();
      if (purged > 0) deps.logger.info({ purged }, 'Idempotency-Keys past retention purged');
    },
  });
}
