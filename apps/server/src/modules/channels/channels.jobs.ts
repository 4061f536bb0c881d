import { defineQueue, type Jobs } from '../../platform/jobs/jobs.ts';
import type { Logger } from '../../platform/logger.ts';

/**
 * A digit pressed on a URA call reaches the customer's integration URL from a job
 * (`channels.service.ts` enqueues it): retried with backoff while their server is down, given
 * up (and logged) after that, never blocking the carrier's callback.
 */
export const uraAnswerQueue = defineQueue<{ messageId: string; digits: string }>('channels.ura-answer', {
  retryLimit: 5,
  retryDelaySeconds: 10,
  expireInSeconds: 60,
});

/** Every minute: test sends whose process died during the carrier call are settled (unknown, paid). */
export const settleInterruptedQueue = defineQueue<object>('channels.settle-interrupted', {
  schedule: '* * * * *',
  retryLimit: 2,
  expireInSeconds: 120,
});

/**
 * Every hour, once across processes: early receipts past their retention (channels.batch.ts),
 * and the message counts' differences folded (message-counts.ts), scraped or not.
 */
export const channelsHousekeepingQueue = defineQueue<object>('channels.housekeeping', {
  schedule: '23 * * * *',
  retryLimit: 2,
  expireInSeconds: 600,
});

type Post = (url: string, body: unknown) => Promise<{ status: number }>;

/** The channels' workers: URA answers, interrupted test sends, housekeeping. */
export function defineChannelsJobs(
  jobs: Jobs,
  deps: {
    channels: {
      deliverUraAnswer(messageId: string, digits: string, post: Post): Promise<void>;
      settleInterrupted(): Promise<unknown>;
    };
    post: Post;
    purgeEarlyReceipts: () => Promise<number>;
    foldMessageCounts: () => Promise<void>;
    logger: Logger;
  },
): void {
  jobs.work(uraAnswerQueue, {
    handler: (data) => deps.channels.deliverUraAnswer(data.messageId, data.digits, deps.post),
    onGiveUp: async (data, reason) => {
      deps.logger.warn({ messageId: data.messageId, reason }, 'URA answer not delivered to the integration URL');
    },
    concurrency: 2,
  });
  jobs.work(settleInterruptedQueue, {
    handler: async () => {
      await deps.channels.settleInterrupted();
    },
  });
  jobs.work(channelsHousekeepingQueue, {
    handler: async () => {
      const purged = await deps.purgeEarlyReceipts();
      if (purged > 0) deps.logger.info({ purged }, 'early receipts past retention purged');
      await deps.foldMessageCounts();
    },
  });
}
