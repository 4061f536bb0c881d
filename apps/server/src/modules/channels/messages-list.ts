import type { Channel, MessageList, MessageListItem, MessageStatus } from '@ecoa/shared';
import { dateOf, isoOrNull } from '../../platform/db/rows.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import type { MessageListRow, MessagesListRepository } from './messages-list.repository.ts';

export type MessageListFilter = {
  status?: MessageStatus;
  channel?: Channel;
  externalId?: string;
  since?: Date;
  cursor?: string;
  limit: number;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The opaque cursor: where the previous page ended, `(created_at, id)`. */
function encodeCursor(at: string, id: string): string {
  return Buffer.from(JSON.stringify([at, id])).toString('base64url');
}

function decodeCursor(cursor: string): { at: string; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof at === 'string' && typeof id === 'string' && UUID.test(id) && !Number.isNaN(Date.parse(at)))
      return { at, id };
  } catch {
    // Not ours: refused below.
  }
  throw new AppError('INVALID_CURSOR');
}

/** A row as the API shows it. */
function toMessageListItem(r: MessageListRow): MessageListItem {
  return {
    id: r.id,
    channel: r.channel,
    to: r.to_phone,
    status: r.status,
    reason: r.reason,
    parts: Number(r.parts),
    externalId: r.external_id,
    batchId: r.campaign_id,
    createdAt: dateOf(r.created_at).toISOString(),
    finishedAt: isoOrNull(r.finished_at),
  };
}

/**
 * The user's messages, newest first, in keyset pages (`GET /api/v1/messages`): the sending API's,
 * the campaigns' recipients and the test sends alike, read by the module that owns them (ADR 018).
 */
export function createMessagesList(repo: MessagesListRepository) {
  return {
    async page(userId: string, f: MessageListFilter): Promise<MessageList> {
      const after = f.cursor ? decodeCursor(f.cursor) : undefined;
      const { status, channel, externalId, since } = f;
      // One more than the page: whether there is a next one.
      const rows = await repo.page(userId, { status, channel, externalId, since, after, limit: f.limit + 1 });
      const page = rows.slice(0, f.limit);
      const last = page[page.length - 1];
      return {
        items: page.map(toMessageListItem),
        nextCursor: rows.length > f.limit && last ? encodeCursor(last.at, last.id) : null,
      };
    },
  };
}

export type MessagesList = ReturnType<typeof createMessagesList>;
