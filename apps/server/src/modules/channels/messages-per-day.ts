import type { Channel } from '@ecoa/shared';
import type { MessagesPerDayRepository } from './messages-per-day.repository.ts';

export type MessagesOnDay = { day: string; channel: Channel; sent: number; delivered: number };

/**
 * The user's messages per day, read for other modules (the dashboard) by the module that owns them
 * (ADR 018); the SQL is `messages-per-day.repository.ts`'s.
 */
export function createMessagesPerDay(repository: MessagesPerDayRepository) {
  return {
    /** Messages sent and delivered per day (São Paulo) and channel since `since` (campaigns and test sends). */
    async since(userId: string, since: Date): Promise<MessagesOnDay[]> {
      const rows = await repository.since(userId, since);
      return rows
        .map((r) => ({ day: r.day, channel: r.channel, sent: Number(r.sent), delivered: Number(r.delivered) }))
        .filter((r) => r.sent > 0 || r.delivered > 0);
    },
  };
}
