import type { Jobs } from '../../platform/jobs/jobs.ts';
import type { Logger } from '../../platform/logger.ts';
import {
  CHANNELS_HOUSEKEEPING_QUEUE,
  type ChannelsService,
  SETTLE_INTERRUPTED_QUEUE,
  URA_ANSWER_QUEUE,
} from './channels.service.ts';

/**
 * A digit pressed on a URA call reaches the customer's integration URL from a job: retried with
 * backoff while their server is down, given up (and logged) after that, never blocking the
 * carrier's callback.
 */
export function defineChannelsJobs(
  jobs: Jobs,
  deps: {
    channels: Pick<ChannelsService, 'deliverUraAnswer' | 'settleInterrupted'>;
    post: (url: string, body: unknown) => Promise<{ status: number }>;
    purgeEarlyReceipts: () => Promise<number>;
    foldMessageCounts: () => Promise<void>;
    logger: Logger;
  },
): void {
  jobs.define<{ messageId: string; digits: string }>({
    name: URA_ANSWER_QUEUE,
    handler: (data) => deps.channels.deliverUraAnswer(data.messageId, data.digits, deps.post),
    onGiveUp: async (data, reason) => {
      deps.logger.warn({ messageId: data.messageId, reason }, 'URA answer not delivered to the integration URL');
    },
    concurrency: 2,
    retryLimit: 5,
    retryDelaySeconds: 10,
    expireInSeconds: 60,
  });

  // Every minute: test sends whose process died during the carrier call are settled (unknown, paid).
  jobs.define<object>({
    name: SETTLE_INTERRUPTED_QUEUE,
    handler: async () => {
      await deps.channels.settleInterrupted();
    },
    schedule: '* * * * *',
    retryLimit: 2,
    expireInSeconds: 120,
  });

  // Every hour, once across processes: early receipts past their retention (channels.batch.ts),
  // and the message counts' differences folded (message-counts.ts), scraped or not.
  jobs.define<object>({
    name: CHANNELS_HOUSEKEEPING_QUEUE,
    handler: async () => {
      const purged = await deps.purgeEarlyReceipts();
      if (purged > 0) deps.logger.info({ purged }, 'early receipts past retention purged');
      await deps.foldMessageCounts();
    },
    schedule: '23 * * * *',
    retryLimit: 2,
    expireInSeconds: 600,
  });
}
