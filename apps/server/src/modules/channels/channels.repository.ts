import type { Channel, MessageEventStatus, MessageStatus } from '@ecoa/shared';
import { and, asc, desc, eq, inArray, isNull, lt, lte, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../platform/db/client.ts';
import { createMessageBatches } from './channels.batch.ts';
import { inboundMessages, type MessageRow, messageEvents, messages } from './channels.schema.ts';
import type { StatusListener } from './message-batch-state.ts';
import { advances, isFinal } from './message-status.ts';
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

/**
 * Adds a step to a message's history, never before the previous one: carriers' clocks and
 * ours differ (a receipt stamped by the carrier before our submit response was stored), and the
 * history must read in the order things happened to the message.
 */
async function addEvent(
  messageId: string,
  status: MessageEventStatus,
  at: Date,
  extra: { reason?: string | null; detail?: StatusEvent['detail'] },
  tx: DbOrTx,
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
  messageId: string,
  status: MessageStatus,
  at: Date,
  reason: string | null,
  detail: StatusEvent['detail'] | undefined,
  tx: DbOrTx,
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
  await addEvent(messageId, status, at, { reason, detail }, tx);
  return true;
}

/**
 * The last message sent to `phone` on one of `channels` before `before`, read through
 * `messages_to_created_idx`, whose phones are in byte order (`collate "C"`, ADR 026): the
 * comparison names that collation, or the index is not used. Exported for its plan's test.
 */
export function lastMessageToQuery(db: DbOrTx, phone: string, channels: readonly Channel[], before: Date) {
  return db
    .select({
      userId: messages.userId,
      messageId: messages.id,
      campaignId: messages.campaignId,
      channel: messages.channel,
    })
    .from(messages)
    .where(
      and(
        sql`(${messages.toPhone} collate "C") = ${phone}`,
        inArray(messages.channel, [...channels]),
        lte(messages.createdAt, before),
      ),
    )
    .orderBy(desc(messages.createdAt))
    .limit(1);
}

export function createChannelsRepository(db: Database, hooks: { onStatus?: StatusListener } = {}) {
  const batches = createMessageBatches((fn) => db.transaction(fn), hooks.onStatus);
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
      await addEvent(row!.id, 'queued', now, {}, tx);
      return row!.id;
    },

    /**
     * queued → submitting, just before the carrier is called. False when it is not `queued` any
     * more (the sweep settled it as interrupted): then it must not be sent.
     */
    async markSubmitting(messageId: string, now: Date): Promise<boolean> {
      return db.transaction((tx) => advanceMessage(messageId, 'submitting', now, null, undefined, tx));
    },

    /** Whether the message is still `submitting`, its row locked until `tx` ends. */
    async lockIfSubmitting(messageId: string, tx: DbOrTx): Promise<boolean> {
      const [row] = await tx
        .select({ status: messages.status })
        .from(messages)
        .where(eq(messages.id, messageId))
        .for('update');
      return row?.status === 'submitting';
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
      const run = (t: DbOrTx) => batches.recordSubmittedBatch([{ messageId, provider, providerIds }], now, [], t);
      return (await (tx === db ? db.transaction(run) : run(tx))).followUps.map((a) => a.event);
    },

    /** A receipt: applied to its message, or kept until the submit response is stored. */
    async applyReceipt(event: StatusEvent): Promise<{ outcome: ReceiptOutcome; messageId?: string }> {
      const [result] = await batches.applyReceipts([event]);
      return { outcome: result!.outcome, messageId: result!.messageId };
    },

    /** Many receipts in one transaction (the receipt batcher). */
    applyReceipts: (events: StatusEvent[]) => batches.applyReceipts(events),
    recordSubmittedBatch: batches.recordSubmittedBatch,
    settleBatch: batches.settleBatch,
    sweepEarlyReceipts: batches.sweepEarlyReceipts,
    purgeEarlyReceipts: batches.purgeEarlyReceipts,

    /**
     * The carrier refused it, or its fate is unknown (the request may have reached the carrier).
     * False when it had settled already (its credits moved then).
     */
    async settleWithoutCarrier(
      messageId: string,
      status: 'failed' | 'unknown',
      reason: string,
      now: Date,
      tx: DbOrTx = db,
    ): Promise<boolean> {
      const run = (t: DbOrTx) => batches.settleBatch([{ messageId, status, reason }], now, t);
      return (await (tx === db ? db.transaction(run) : run(tx))).has(messageId);
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

    /**
     * Test sends left `queued` (their process died after creating them, before the carrier call)
     * or `submitting` (it died during the call) since before `before`.
     */
    async interruptedTestSends(before: Date, limit = 100): Promise<MessageRow[]> {
      return db
        .select()
        .from(messages)
        .where(
          and(
            inArray(messages.status, ['queued', 'submitting']),
            isNull(messages.campaignId),
            lt(messages.updatedAt, before),
          ),
        )
        .limit(limit);
    },

    async findById(id: string): Promise<MessageRow | undefined> {
      const [message] = await db.select().from(messages).where(eq(messages.id, id));
      return message;
    },

    /**
     * The last message sent to `phone` on one of `channels` before `before`: whose account a reply
     * belongs to, and the message (and campaign) it answers.
     */
    async lastMessageTo(
      phone: string,
      channels: readonly Channel[],
      before: Date,
    ): Promise<{ userId: string; messageId: string; campaignId: string | null; channel: Channel } | undefined> {
      const [row] = await lastMessageToQuery(db, phone, channels, before);
      return row;
    },

    /** Stores an incoming message; its id (the `message.reply` event names it). */
    async storeInbound(input: typeof inboundMessages.$inferInsert): Promise<string> {
      const [row] = await db.insert(inboundMessages).values(input).returning({ id: inboundMessages.id });
      return row!.id;
    },
  };
}

export type ChannelsRepository = ReturnType<typeof createChannelsRepository>;
