import {
  CAMPAIGN_KINDS,
  CAMPAIGN_STATUSES,
  type CampaignContent,
  CHANNELS,
  CREDIT_TYPES,
  type SendingWindow,
} from '@ecoa/shared';
import { index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { ownedBy, randomId, timestamps, timestamptz } from '../../platform/db/columns.ts';
import { users } from '../users/index.ts';

/** What the start left out of a campaign's recipients, and why. */
export type CampaignExclusions = { optedOut: number; duplicates: number; landlines: number };

/**
 * A campaign: what to send, to which lists, when. Its recipients are `messages` rows
 * (`campaign_id`), snapshotted at start with their rendered content; their statuses are the
 * campaign's counts. The credit columns mirror the ledger's moves for this campaign's reference,
 * written in the same transactions.
 */
export const campaigns = pgTable(
  'campaigns',
  {
    id: randomId(),
    userId: ownedBy(users),
    name: text('name').notNull(),
    /**
     * `campaign`: made in the wizard from lists. `api`: a request of the sending API (one message
     * or one batch, ADR 020), drained by the same dispatcher and hidden from the campaigns' screens.
     */
    kind: text('kind', { enum: CAMPAIGN_KINDS }).notNull().default('campaign'),
    channel: text('channel', { enum: CHANNELS }).notNull(),
    status: text('status', { enum: CAMPAIGN_STATUSES }).notNull().default('DRAFT'),
    listIds: uuid('list_ids').array().notNull(),
    content: jsonb('content').$type<CampaignContent>().notNull(),
    window: jsonb('window').$type<SendingWindow>().notNull(),
    maxRate: integer('max_rate'),
    creditType: text('credit_type', { enum: CREDIT_TYPES }).notNull(),
    /** Recipients snapshotted at start. */
    total: integer('total').notNull().default(0),
    excluded: jsonb('excluded').$type<CampaignExclusions>(),
    creditsReserved: integer('credits_reserved').notNull().default(0),
    creditsUsed: integer('credits_used').notNull().default(0),
    creditsReleased: integer('credits_released').notNull().default(0),
    /** Why it is paused or failed (a code the web translates), and the carrier's words. */
    statusReason: text('status_reason'),
    statusDetail: text('status_detail'),
    /** Consecutive carrier failures (not the recipient's fault): too many pause the campaign. */
    providerFailures: integer('provider_failures').notNull().default(0),
    /** The last time a dispatcher worked on it: a RUNNING campaign nobody beats for is picked up again. */
    heartbeatAt: timestamptz('heartbeat_at'),
    /** An administrator turned its tracked links off (abuse): they lead to the friendly page. */
    linksDisabledAt: timestamptz('links_disabled_at'),
    linksDisabledReason: text('links_disabled_reason'),
    ...timestamps(),
    scheduledAt: timestamptz('scheduled_at'),
    startedAt: timestamptz('started_at'),
    finishedAt: timestamptz('finished_at'),
  },
  (t) => [
    index('campaigns_user_created_idx').on(t.userId, t.createdAt),
    index('campaigns_status_idx').on(t.status, t.scheduledAt),
  ],
);

export type CampaignRow = typeof campaigns.$inferSelect;

/**
 * The processes that dispatch (the server, each `npm run worker`), each beating every few
 * seconds: a recipient claimed by a process that stopped beating was cut off mid-send.
 */
export const dispatchWorkers = pgTable('dispatch_workers', {
  id: uuid('id').primaryKey(),
  heartbeatAt: timestamptz('heartbeat_at').notNull(),
  startedAt: timestamptz('started_at').notNull(),
  pid: integer('pid').notNull(),
  /**
   * When this process last counted the live processes (and took its share of the rates): a
   * process that joined later sends once every other has counted it (campaigns.supervisor.ts).
   */
  viewedAt: timestamptz('viewed_at'),
  /** The carrier accounts this process sends through, one key each, space-separated: each one's rate is shared among the processes on it. */
  carriers: text('carriers'),
});
