/**
 * The batch's outcomes written through the channels repository, message by message.
 * TODO(lead): replaced by the channels module's set-based batch writes.
 */
import type { ChannelsRepository } from '../channels/channels.repository.ts';
import type { RecipientStore } from './campaigns.dispatcher.ts';

export function recipientStoreOf(channels: ChannelsRepository): RecipientStore {
  return {
    async recordSubmittedBatch(rows, now, tx) {
      const applied = [];
      for (const row of rows) {
        for (const event of await channels.recordSubmitted(row.messageId, row.provider, row.providerIds, now, tx)) {
          applied.push({ event, messageId: row.messageId });
        }
      }
      return applied;
    },
    async settleBatch(rows, now, tx) {
      for (const row of rows) {
        await channels.settleWithoutCarrier(row.messageId, row.status as 'failed', row.reason ?? '', now, tx);
      }
    },
  };
}
