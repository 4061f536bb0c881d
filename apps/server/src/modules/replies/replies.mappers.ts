import { type Reply, WHATSAPP_ANSWER_WINDOW_MS } from '@ecoa/shared';
import type { ReplyRow } from '../channels/index.ts';

/**
 * A stored reply as the API shows it. `answerable`: an SMS reply always, a WhatsApp one while its
 * 24-hour customer-service window is open (`answerableUntil`), an RCS one never.
 */
export function toReplyDto(row: ReplyRow, now: Date): Reply {
  const windowEnd = row.channel === 'whatsapp' ? new Date(row.receivedAt.getTime() + WHATSAPP_ANSWER_WINDOW_MS) : null;
  return {
    id: row.id,
    phone: row.phone,
    contactName: row.contactName,
    channel: row.channel,
    text: row.text,
    receivedAt: row.receivedAt.toISOString(),
    optOut: row.optOut,
    handledAt: row.handledAt?.toISOString() ?? null,
    campaign:
      row.campaignId && row.campaignName
        ? { id: row.campaignId, name: row.campaignName, kind: row.campaignKind ?? 'campaign' }
        : null,
    externalId: row.externalId,
    messageId: row.messageId,
    answerableUntil: windowEnd?.toISOString() ?? null,
    answerable: row.channel === 'sms' || (windowEnd !== null && now < windowEnd),
  };
}

/** A page's cursor: the last reply's time and id, opaque to the client. */
export function encodeCursor(row: { receivedAt: Date; id: string }): string {
  return Buffer.from(`${row.receivedAt.toISOString()}|${row.id}`).toString('base64url');
}

/** The reply a cursor names, or undefined when it is not one this server wrote. */
export function decodeCursor(cursor: string): { receivedAt: Date; id: string } | undefined {
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const receivedAt = new Date(at ?? '');
  if (Number.isNaN(receivedAt.getTime()) || !/^[0-9a-f-]{36}$/i.test(id ?? '')) return undefined;
  return { receivedAt, id: id! };
}
