import type { Channel, MessageEventStatus, MessageStatus } from '@ecoa/shared';
import { and, asc, desc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../platform/db/client.ts';
import {
  earlyReceipts,
  inboundMessages,
  type MessageRow,
  messageEvents,
  messages,
  providerMessageIds,
} from './channels.schema.ts';
import { advances, combineParts, isFinal } from './message-status.ts';
import type { OutboundContent, StatusEvent } from './provider.ts';

export type NewMessage = {
  userId: string;
  channel: Channel;
  toPhone: string;
  parts: number;
  provider: string;
  content: OutboundContent;
  campaignId?: string | null;
  clientKey?: string | null;
};

export type MessageEventRow = typeof messageEvents.$inferSelect;

/** What became of a receipt: applied to its message, kept for later (its submit is not stored yet), or nothing new. */
export type ReceiptOutcome = 'applied' | 'early' | 'unchanged';

/** Serialises everything about one carrier id (its receipt and the storing of its submit response). */
async function lockProviderId(tx: DbOrTx, provider: string, providerMessageId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`${provider}:${providerMessageId}`}, 0))`);
}

/**
 * Adds a step to a message's history, never before the previous one: carriers' clocks and
 * ours differ (a receipt stamped by the carrier before our submit response was stored), and the
 * history must read in the order things happened to the message.
 */
async function addEvent(
  tx: DbOrTx,
  messageId: string,
  status: MessageEventStatus,
  at: Date,
  extra: { reason?: string | null; detail?: StatusEvent['detail'] } = {},
): Promise<void> {
  const [last] = await tx
    .select({ at: sql<Date>`max(${messageEvents.at})`.mapWith(messageEvents.at) })
    .from(messageEvents)
    .where(eq(messageEvents.messageId, messageId));
  const when = last?.at && last.at > at ? last.at : at;
  await tx
    .insert(messageEvents)
    .values({ messageId, status, at: when, reason: extra.reason ?? null, detail: extra.detail ?? null });
}

/** Moves a message forward to `status` (never back); records the step. */
async function advanceMessage(
  tx: DbOrTx,
  messageId: string,
  status: MessageStatus,
  at: Date,
  reason: string | null = null,
  detail?: StatusEvent['detail'],
): Promise<boolean> {
  const [row] = await tx
    .select({ status: messages.status })
    .from(messages)
    .where(eq(messages.id, messageId))
    .for('update');
  if (!row || !advances(row.status, status)) return false;
  await tx
    .update(messages)
    .set({
      status,
      reason,
      updatedAt: at,
      ...(status === 'sent' ? { submittedAt: at } : {}),
      ...(isFinal(status) ? { finishedAt: at } : {}),
    })
    .where(eq(messages.id, messageId));
  await addEvent(tx, messageId, status, at, { reason, detail });
  return true;
}

/**
 * A receipt for a stored carrier id: the part moves forward, and the message settles once every
 * part has its last word (message-status.ts). `read` implies delivered and is recorded as well.
 */
async function applyToPart(
  tx: DbOrTx,
  part: { messageId: string; status: MessageStatus | null },
  event: StatusEvent,
): Promise<ReceiptOutcome> {
  const partStatus: MessageStatus = event.status === 'read' ? 'delivered' : event.status;
  let changed = false;
  if (part.status === null || advances(part.status, partStatus)) {
    await tx
      .update(providerMessageIds)
      .set({ status: partStatus, reason: event.reason ?? null })
      .where(
        and(
          eq(providerMessageIds.provider, event.provider),
          eq(providerMessageIds.providerMessageId, event.providerMessageId),
        ),
      );
    changed = true;
  }
  // The message row is locked first, so two parts' receipts never both miss the other's update.
  await tx.select({ id: messages.id }).from(messages).where(eq(messages.id, part.messageId)).for('update');
  const parts = await tx
    .select({ status: providerMessageIds.status, reason: providerMessageIds.reason })
    .from(providerMessageIds)
    .where(eq(providerMessageIds.messageId, part.messageId));
  const settled = combineParts(parts);
  const moved = settled
    ? await advanceMessage(tx, part.messageId, settled.status, event.at, settled.reason, event.detail)
    : partStatus === 'sent' && (await advanceMessage(tx, part.messageId, 'sent', event.at));
  // Facts that come without a new status (the digit pressed during a call) are kept too.
  if (!moved && event.detail?.digits !== undefined) {
    await addEvent(tx, part.messageId, partStatus, event.at, { detail: event.detail });
  }
  let read = false;
  if (event.status === 'read') {
    const [seen] = await tx
      .select({ id: messageEvents.id })
      .from(messageEvents)
      .where(and(eq(messageEvents.messageId, part.messageId), eq(messageEvents.status, 'read')))
      .limit(1);
    if (!seen) await addEvent(tx, part.messageId, 'read', event.at);
    read = !seen;
  }
  return changed || moved || read || event.detail?.digits !== undefined ? 'applied' : 'unchanged';
}

function reviveEvent(stored: unknown): StatusEvent {
  const e = stored as Omit<StatusEvent, 'at'> & { at: string };
  return { ...e, at: new Date(e.at) };
}

export function createChannelsRepository(db: Database) {
  return {
    /** A new message, `queued`; pass `tx` to create it with its credit reservation. */
    async createMessage(input: NewMessage, now: Date, tx: DbOrTx = db): Promise<string> {
      const [row] = await tx
        .insert(messages)
        .values({
          ...input,
          campaignId: input.campaignId ?? null,
          clientKey: input.clientKey ?? null,
          status: 'queued',
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: messages.id });
      await addEvent(tx, row!.id, 'queued', now);
      return row!.id;
    },

    /** queued → submitting, just before the carrier is called. */
    async markSubmitting(messageId: string, now: Date): Promise<void> {
      await db.transaction((tx) => advanceMessage(tx, messageId, 'submitting', now).then(() => {}));
    },

    /**
     * The carrier accepted the message: its ids are stored (one per part), the message is `sent`,
     * and any receipt that arrived before this is applied now, in the same transaction (returned,
     * for their follow-ups).
     */
    async recordSubmitted(
      messageId: string,
      provider: string,
      providerIds: string[],
      now: Date,
      tx: DbOrTx = db,
    ): Promise<StatusEvent[]> {
      const run = async (t: DbOrTx) => {
        const applied: StatusEvent[] = [];
        for (const id of providerIds) await lockProviderId(t, provider, id);
        // A carrier may reuse an id long after (a counter that wrapped, a restart): the newest
        // submission owns it from now on.
        await t
          .insert(providerMessageIds)
          .values(providerIds.map((providerMessageId, part) => ({ provider, providerMessageId, messageId, part })))
          .onConflictDoUpdate({
            target: [providerMessageIds.provider, providerMessageIds.providerMessageId],
            set: { messageId, part: sql`excluded.part`, status: null, reason: null },
          });
        await advanceMessage(t, messageId, 'sent', now);
        const early = await t
          .delete(earlyReceipts)
          .where(and(eq(earlyReceipts.provider, provider), inArray(earlyReceipts.providerMessageId, providerIds)))
          .returning({ event: earlyReceipts.event, id: earlyReceipts.id });
        for (const { event } of early.sort((a, b) => a.id - b.id)) {
          const e = reviveEvent(event);
          const [part] = await t
            .select({ messageId: providerMessageIds.messageId, status: providerMessageIds.status })
            .from(providerMessageIds)
            .where(
              and(
                eq(providerMessageIds.provider, provider),
                eq(providerMessageIds.providerMessageId, e.providerMessageId),
              ),
            );
          if (part && (await applyToPart(t, part, e)) === 'applied') applied.push(e);
        }
        return applied;
      };
      return tx === db ? db.transaction(run) : run(tx);
    },

    /** A receipt: applied to its message, or kept until the submit response is stored. */
    async applyReceipt(event: StatusEvent): Promise<{ outcome: ReceiptOutcome; messageId?: string }> {
      return db.transaction(async (tx) => {
        await lockProviderId(tx, event.provider, event.providerMessageId);
        const [part] = await tx
          .select({ messageId: providerMessageIds.messageId, status: providerMessageIds.status })
          .from(providerMessageIds)
          .where(
            and(
              eq(providerMessageIds.provider, event.provider),
              eq(providerMessageIds.providerMessageId, event.providerMessageId),
            ),
          );
        if (!part) {
          await tx.insert(earlyReceipts).values({
            provider: event.provider,
            providerMessageId: event.providerMessageId,
            event: { ...event, at: event.at.toISOString() },
          });
          return { outcome: 'early' };
        }
        return { outcome: await applyToPart(tx, part, event), messageId: part.messageId };
      });
    },

    /** The carrier refused it, or its fate is unknown (the request may have reached the carrier). */
    async settleWithoutCarrier(
      messageId: string,
      status: 'failed' | 'unknown',
      reason: string,
      now: Date,
      tx: DbOrTx = db,
    ): Promise<void> {
      if (tx === db) await db.transaction((t) => advanceMessage(t, messageId, status, now, reason).then(() => {}));
      else await advanceMessage(tx, messageId, status, now, reason);
    },

    async findOwned(
      userId: string,
      id: string,
    ): Promise<{ message: MessageRow; events: MessageEventRow[] } | undefined> {
      const [message] = await db
        .select()
        .from(messages)
        .where(and(eq(messages.id, id), eq(messages.userId, userId)));
      if (!message) return undefined;
      const events = await db
        .select()
        .from(messageEvents)
        .where(eq(messageEvents.messageId, id))
        .orderBy(asc(messageEvents.at), asc(messageEvents.id));
      return { message, events };
    },

    /** The test send made with this Idempotency-Key, if any. */
    async findByClientKey(userId: string, clientKey: string): Promise<string | undefined> {
      const [row] = await db
        .select({ id: messages.id })
        .from(messages)
        .where(and(eq(messages.userId, userId), eq(messages.clientKey, clientKey)));
      return row?.id;
    },

    /** Test sends left `submitting` since before `before`: their process died during the carrier call. */
    async interruptedTestSends(before: Date, limit = 100): Promise<MessageRow[]> {
      return db
        .select()
        .from(messages)
        .where(and(eq(messages.status, 'submitting'), isNull(messages.campaignId), lt(messages.updatedAt, before)))
        .limit(limit);
    },

    async findById(id: string): Promise<MessageRow | undefined> {
      const [message] = await db.select().from(messages).where(eq(messages.id, id));
      return message;
    },

    /** The account that last sent a message to `phone` (an SMS reply belongs to it). */
    async lastSenderTo(phone: string): Promise<string | undefined> {
      const [row] = await db
        .select({ userId: messages.userId })
        .from(messages)
        .where(eq(messages.toPhone, phone))
        .orderBy(desc(messages.createdAt))
        .limit(1);
      return row?.userId;
    },

    async storeInbound(input: {
      userId: string | undefined;
      provider: string;
      fromPhone: string;
      text: string;
      optedOut: boolean;
      receivedAt: Date;
    }): Promise<void> {
      await db.insert(inboundMessages).values({ ...input, userId: input.userId ?? null });
    },
  };
}

export type ChannelsRepository = ReturnType<typeof createChannelsRepository>;
