import { LINK_MODES, LINK_STATUSES, type LinkFallback, type LinkPixels, type TargetHours } from '@ecoa/shared';
import { sql } from 'drizzle-orm';
import { bigserial, boolean, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { ownedBy, randomId, timestamps, timestamptz } from '../../platform/db/columns.ts';
import { users } from '../users/index.ts';

/**
 * A rotating link: `PUBLIC_URL/l/<slug>` spreads its clicks across its targets. Each link has its
 * own PostgreSQL sequence (`turn_sequence`): the hop's `nextval` in the statement that reads the
 * link gives every concurrent click its own turn, in any number of processes, without a row
 * lock or a commit to wait for (a counter row updated per click capped the hop at ~2,000/s).
 */
export const rotatingLinks = pgTable(
  'rotating_links',
  {
    id: randomId(),
    userId: ownedBy(users),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    mode: text('mode', { enum: LINK_MODES }).notNull(),
    sticky: boolean('sticky').notNull().default(false),
    status: text('status', { enum: LINK_STATUSES }).notNull().default('active'),
    fallback: jsonb('fallback').$type<LinkFallback>(),
    pixels: jsonb('pixels').$type<LinkPixels>(),
    turnSequence: text('turn_sequence').notNull(),
    /** An administrator switched it off (abuse): the hop shows the friendly page. */
    disabledAt: timestamptz('disabled_at'),
    disabledReason: text('disabled_reason'),
    deletedAt: timestamptz('deleted_at'),
    ...timestamps(),
  },
  (t) => [
    // A deleted link gives its address back.
    uniqueIndex('rotating_links_slug_key').on(t.slug).where(sql`deleted_at is null`),
    index('rotating_links_user_idx').on(t.userId, t.createdAt),
  ],
);

/** A link's destinations, in rotation order. Removed ones stay (their clicks keep a label). */
export const linkTargets = pgTable(
  'link_targets',
  {
    id: randomId(),
    linkId: uuid('link_id')
      .notNull()
      .references(() => rotatingLinks.id),
    position: integer('position').notNull(),
    kind: text('kind', { enum: ['whatsapp', 'url'] }).notNull(),
    /** E.164. */
    phone: text('phone'),
    url: text('url'),
    label: text('label'),
    message: text('message'),
    weight: integer('weight').notNull().default(1),
    active: boolean('active').notNull().default(true),
    hours: jsonb('hours').$type<TargetHours>(),
    removedAt: timestamptz('removed_at'),
  },
  (t) => [index('link_targets_link_idx').on(t.linkId, t.position)],
);

/**
 * One visitor's click on a rotating link or a campaign's tracked link (no raw IP: a keyed hash
 * of it with the user agent, LGPD).
 */
export const linkClicks = pgTable(
  'link_clicks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** The rotating link (null: a campaign's tracked link to a plain URL). */
    linkId: uuid('link_id'),
    /** A campaign recipient's tracked link: who clicked, in which campaign. */
    messageId: uuid('message_id'),
    campaignId: uuid('campaign_id'),
    /** Null: no target was available (the fallback or the friendly page). */
    targetId: uuid('target_id'),
    at: timestamptz('at').notNull(),
    referrer: text('referrer'),
    utmSource: text('utm_source'),
    utmMedium: text('utm_medium'),
    utmCampaign: text('utm_campaign'),
    utmTerm: text('utm_term'),
    utmContent: text('utm_content'),
    /** mobile | desktop | tablet | other. */
    device: text('device').notNull(),
    country: text('country'),
    visitor: text('visitor').notNull(),
  },
  (t) => [
    index('link_clicks_link_at_idx').on(t.linkId, t.at),
    index('link_clicks_campaign_idx').on(t.campaignId, t.messageId).where(sql`campaign_id is not null`),
  ],
);

export type RotatingLinkRow = typeof rotatingLinks.$inferSelect;
export type LinkTargetRow = typeof linkTargets.$inferSelect;
export type NewLinkClick = typeof linkClicks.$inferInsert;
