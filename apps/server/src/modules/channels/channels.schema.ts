import { CHANNELS, MESSAGE_EVENT_STATUSES, MESSAGE_STATUSES, REPLY_CHANNELS } from '@ecoa/shared';
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { randomId, timestamps, timestamptz } from '../../platform/db/columns.ts';
import { users } from '../users/index.ts';
import type { OutboundContent } from './provider.ts';

/**
 * One message to one recipient on one channel: a test send now, a campaign's recipient later.
 * Its status only moves forward (message-status.ts); every step is a row of message_events.
 *
 * No foreign keys on the rows written per message (`messages.user_id`, and the message id of
 * `message_events` and `provider_message_ids`): each costs a per-row trigger and a lookup on every
 * insert (ADR 023). Users are never deleted; the children are only written for messages just read
 * in the same transaction; a deleted message takes its children with it (migration 0027's
 * statement-level trigger).
 */
export const messages = pgTable(
  'messages',
  {
    id: randomId(),
    /** Its owner (`users.id`; no foreign key, see above). */
    userId: uuid('user_id').notNull(),
    channel: text('channel', { enum: CHANNELS }).notNull(),
    /** E.164. */
    toPhone: text('to_phone').notNull(),
    status: text('status', { enum: MESSAGE_STATUSES }).notNull().default('queued'),
    /** Why it failed, expired or is unknown: Ecoa's reason code (the carrier's code kept in it). */
    reason: text('reason'),
    /** Credits it costs (SMS parts; 1 for the other channels). */
    parts: smallint('parts').notNull(),
    provider: text('provider').notNull(),
    /** What was sent (the provider's OutboundContent): the report shows it, URA answers need it. */
    content: jsonb('content').$type<OutboundContent>().notNull(),
    /** The campaign it belongs to (campaigns issue); null for a test send. */
    campaignId: uuid('campaign_id'),
    /** A campaign recipient's name in its list (the report shows it). */
    contactName: text('contact_name'),
    /** The dispatching process that claimed it (`dispatch_workers`): set with `submitting`. */
    workerId: uuid('worker_id'),
    /** The client's Idempotency-Key of a test send: the same request twice sends once. */
    clientKey: text('client_key'),
    /** A campaign recipient's tracked link code (`PUBLIC_URL/l/_<code>`), when its text has `{link}`. */
    shortCode: text('short_code'),
    /** The sending API's client reference (an order number): echoed back, filterable. */
    externalId: text('external_id'),
    ...timestamps(),
    submittedAt: timestamptz('submitted_at'),
    finishedAt: timestamptz('finished_at'),
  },
  (t) => [
    index('messages_user_created_idx').on(t.userId, t.createdAt),
    index('messages_campaign_idx').on(t.campaignId, t.status),
    // Byte order ("C"), not the database's collation: phones are digits, and every insert and every
    // status change adds an entry here. With C.UTF-8, comparing through the locale was a fifth of a
    // million-recipient start's time (ADR 026). Queries compare `to_phone collate "C"` to use it.
    index('messages_to_created_idx').on(sql`(${t.toPhone} collate "C")`, t.createdAt),
    // Partial: a campaign's recipients have no key and are rarely `submitting`, and every index
    // entry a status change writes is work taken from the send rate (thousands of rows a second).
    uniqueIndex('messages_user_client_key').on(t.userId, t.clientKey).where(sql`client_key is not null`),
    index('messages_submitting_idx').on(t.updatedAt).where(sql`status = 'submitting'`),
    index('messages_user_external_idx').on(t.userId, t.externalId).where(sql`external_id is not null`),
    uniqueIndex('messages_short_code_key').on(t.shortCode).where(sql`short_code is not null`),
  ],
);

export type MessageRow = typeof messages.$inferSelect;

/** A message's history: each status it reached (and `read`), with the carrier's reason and facts. */
export const messageEvents = pgTable(
  'message_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** `messages.id` (no foreign key: see `messages`). */
    messageId: uuid('message_id').notNull(),
    status: text('status', { enum: MESSAGE_EVENT_STATUSES }).notNull(),
    reason: text('reason'),
    /** Call duration, digits pressed. */
    detail: jsonb('detail').$type<{ durationSeconds?: number; digits?: string }>(),
    at: timestamptz('at').notNull(),
  },
  (t) => [index('message_events_message_idx').on(t.messageId, t.at)],
);

/**
 * The carrier's id of each part of a message (an SMS in three parts has three, each with its own
 * receipt), and the part's own final status: the message is final when every part is.
 */
export const providerMessageIds = pgTable(
  'provider_message_ids',
  {
    provider: text('provider').notNull(),
    providerMessageId: text('provider_message_id').notNull(),
    /** `messages.id` (no foreign key: see `messages`). */
    messageId: uuid('message_id').notNull(),
    part: smallint('part').notNull(),
    status: text('status', { enum: MESSAGE_STATUSES }),
    reason: text('reason'),
  },
  (t) => [
    primaryKey({ columns: [t.provider, t.providerMessageId] }),
    index('provider_ids_message_idx').on(t.messageId),
  ],
);

/**
 * Receipts that arrived before their submit response was stored (a fast carrier, or a crash
 * between the two): kept here and applied when the id is stored.
 */
export const earlyReceipts = pgTable(
  'early_receipts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    provider: text('provider').notNull(),
    providerMessageId: text('provider_message_id').notNull(),
    /** The StatusEvent, as received (dates as ISO strings). */
    event: jsonb('event').notNull(),
    receivedAt: timestamptz('received_at').notNull().defaultNow(),
  },
  (t) => [
    index('early_receipts_id_idx').on(t.provider, t.providerMessageId),
    // The sweep reads only the last hour's receipts and the purge only those past retention
    // (channels.batch.ts): both are ranges of this index, never the whole table.
    index('early_receipts_received_idx').on(t.receivedAt, t.id),
  ],
);

/**
 * Messages per channel and status, kept by the database as rows move: statement-level triggers
 * on `messages` (migration 0020) add one row per (channel, status) a statement changed, with the
 * difference; `message-counts.ts` sums them for the metrics and folds them together. Counting
 * `messages` itself is a scan of every row, which on PGlite (one backend, in the server's own
 * thread) stalls every request for as long as it takes.
 */
export const messageStatusCounts = pgTable('message_status_counts', {
  channel: text('channel').notNull(),
  status: text('status').notNull(),
  n: bigint('n', { mode: 'number' }).notNull(),
});

/**
 * Messages per campaign, user, channel, São Paulo day (of `created_at`), status, whether submitted
 * and reason, kept by the database as rows move (issue 24): statement-level triggers on `messages`
 * (migration 0026) add one row per key a statement changed, with the difference. The campaign
 * screens and the home page sum them (`message-tallies.ts`, which folds them together) instead of
 * counting a campaign's rows on every poll, so their cost does not grow with `messages`.
 */
export const messageTallies = pgTable(
  'message_tallies',
  {
    userId: uuid('user_id').notNull(),
    campaignId: uuid('campaign_id'),
    channel: text('channel').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    status: text('status').notNull(),
    submitted: boolean('submitted').notNull(),
    reason: text('reason'),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [
    index('message_tallies_campaign_idx').on(t.campaignId),
    index('message_tallies_user_day_idx').on(t.userId, t.day),
  ],
);

/**
 * A campaign's sends and outcomes per second (of `submitted_at`, and of `finished_at` for
 * delivered, failed and expired), kept like `message_tallies` by the same migration's triggers:
 * the timeline sums them into its buckets.
 */
export const campaignTimelineTallies = pgTable(
  'campaign_timeline_tallies',
  {
    campaignId: uuid('campaign_id').notNull(),
    at: timestamptz('at').notNull(),
    sent: integer('sent').notNull(),
    delivered: integer('delivered').notNull(),
    failed: integer('failed').notNull(),
  },
  (t) => [index('campaign_timeline_tallies_idx').on(t.campaignId, t.at)],
);

/**
 * Messages people sent us (SMS, WhatsApp and RCS replies), per account: the account that last
 * wrote to that number on that channel family, and that last message (`message_id`, its
 * `campaign_id`), linked when the reply is stored. The replies inbox reads them (replies.repository.ts).
 */
export const inboundMessages = pgTable(
  'inbound_messages',
  {
    id: randomId(),
    userId: uuid('user_id').references(() => users.id),
    provider: text('provider').notNull(),
    /** The family it came on (`sms` for SMPP), which is the family of the message it answers. */
    channel: text('channel', { enum: REPLY_CHANNELS }).notNull().default('sms'),
    fromPhone: text('from_phone').notNull(),
    text: text('text').notNull(),
    /** The text was an opt-out word and the sender joined the account's opt-outs. */
    optedOut: boolean('opted_out').notNull().default(false),
    receivedAt: timestamptz('received_at').notNull(),
    /** The last message the account sent this number on this family before the reply. */
    messageId: uuid('message_id').references(() => messages.id, { onDelete: 'set null' }),
    /** That message's campaign (null for a test send): the inbox filters by it. */
    campaignId: uuid('campaign_id'),
    /** When the user marked it handled in the inbox; null: not handled. */
    handledAt: timestamptz('handled_at'),
  },
  (t) => [
    // The inbox's keyset order (newest first, id breaking ties).
    index('inbound_user_received_idx').on(t.userId, t.receivedAt, t.id),
    index('inbound_user_campaign_idx').on(t.userId, t.campaignId, t.receivedAt),
  ],
);
