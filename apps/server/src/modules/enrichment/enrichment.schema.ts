/**
 * An enrichment: a list of CNPJs looked up in the CNPJ base. Counts and credits live on the
 * row (a reload or another browser sees them); one item per distinct valid CNPJ, with what
 * the base had for it; invalid inputs are kept (capped) with their reason.
 */
import { ENRICHMENT_STATUSES, type EnrichmentInvalid, type EnrichmentPhone } from '@ecoa/shared';
import { boolean, index, integer, jsonb, pgTable, primaryKey, smallint, text, uuid } from 'drizzle-orm/pg-core';
import { ownedBy, randomId, timestamptz } from '../../platform/db/columns.ts';
import { users } from '../users/index.ts';

export const enrichments = pgTable(
  'enrichments',
  {
    id: randomId(),
    userId: ownedBy(users, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    status: text('status', { enum: ENRICHMENT_STATUSES }).notNull().default('processing'),
    onlyActive: boolean('only_active').notNull().default(false),
    /** 0..100. */
    progress: smallint('progress').notNull().default(0),
    /** Inputs = valid + invalid + duplicates. */
    total: integer('total').notNull().default(0),
    valid: integer('valid').notNull().default(0),
    invalid: integer('invalid').notNull().default(0),
    duplicates: integer('duplicates').notNull().default(0),
    /** found + notFound = valid; withPhone ≤ found. */
    found: integer('found').notNull().default(0),
    withPhone: integer('with_phone').notNull().default(0),
    notFound: integer('not_found').notNull().default(0),
    creditsReserved: integer('credits_reserved').notNull().default(0),
    creditsUsed: integer('credits_used').notNull().default(0),
    creditsReleased: integer('credits_released').notNull().default(0),
    /** The first invalid inputs with their reason (at most 1,000). */
    invalidItems: jsonb('invalid_items').$type<EnrichmentInvalid[]>().notNull().default([]),
    /** The CNPJ base's reference month the lookup used. */
    baseMonth: text('base_month'),
    error: text('error'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    finishedAt: timestamptz('finished_at'),
  },
  (t) => [index('enrichments_user_created_idx').on(t.userId, t.createdAt)],
);

export const enrichmentItems = pgTable(
  'enrichment_items',
  {
    enrichmentId: uuid('enrichment_id')
      .notNull()
      .references(() => enrichments.id, { onDelete: 'cascade' }),
    /** Order of first appearance in the input. */
    position: integer('position').notNull(),
    cnpj: text('cnpj').notNull(),
    found: boolean('found').notNull().default(false),
    companyName: text('company_name'),
    tradeName: text('trade_name'),
    situation: smallint('situation'),
    city: text('city'),
    uf: text('uf'),
    cnae: text('cnae'),
    phones: jsonb('phones').$type<EnrichmentPhone[]>().notNull().default([]),
    email: text('email'),
  },
  (t) => [primaryKey({ columns: [t.enrichmentId, t.position] })],
);

export type EnrichmentRow = typeof enrichments.$inferSelect;
export type EnrichmentItemRow = typeof enrichmentItems.$inferSelect;
