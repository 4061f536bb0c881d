import type { PriceTableKey } from '@ecoa/shared';
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { randomId, timestamps, timestamptz } from '../../platform/db/columns.ts';

/**
 * A company account. Unit prices are integers in ten-thousandths of a real (4 decimal
 * places, blueprint section 4): 0.0850 BRL is stored as 850. 0 means "not configured".
 */
export const users = pgTable(
  'users',
  {
    id: randomId(),
    email: text('email').notNull(),
    /** Company name (the spec's `name`, also sent as `fantasyName`). */
    name: text('name').notNull(),
    fantasyName: text('fantasy_name'),
    fullName: text('full_name').notNull(),
    cnpj: text('cnpj').notNull(),
    mobilePhone: text('mobile_phone').notNull(),
    accessLevel: text('access_level', { enum: ['USER', 'ADMINISTRATOR'] })
      .notNull()
      .default('USER'),
    active: boolean('active').notNull().default(true),
    isNewUser: boolean('is_new_user').notNull().default(true),
    language: text('language', { enum: ['pt', 'en', 'cn'] })
      .notNull()
      .default('pt'),
    profileImagePath: text('profile_image_path'),
    termsAcceptedAt: timestamptz('terms_accepted_at'),
    priceSmsShort: bigint('price_sms_short', { mode: 'number' }).notNull().default(0),
    priceSmsFlash: bigint('price_sms_flash', { mode: 'number' }).notNull().default(0),
    priceWhatsapp: bigint('price_whatsapp', { mode: 'number' }).notNull().default(0),
    priceUra: bigint('price_ura', { mode: 'number' }).notNull().default(0),
    priceRcs: bigint('price_rcs', { mode: 'number' }).notNull().default(0),
    priceUraIntegration: bigint('price_ura_integration', { mode: 'number' }).notNull().default(0),
    priceEnriched: bigint('price_enriched', { mode: 'number' }).notNull().default(0),
    /** permissions.enriched of the spec: 'all' grants enrichment. */
    permissionsEnriched: text('permissions_enriched').array().notNull().default(sql`'{}'::text[]`),
    /** Requests per second of the user's API keys (burst 5×), set by an administrator; null = the default. */
    apiRatePerSecond: integer('api_rate_per_second'),
    /** utm_* marketing fields read from the sign-up page URL. */
    signupUtm: jsonb('signup_utm').$type<Record<string, string>>(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
    index('users_created_at_idx').on(t.createdAt),
  ],
);

export type UserRow = typeof users.$inferSelect;

/** Price-table keys of the API → the users table columns (integers in ten-thousandths of a real). */
export const PRICE_COLUMNS = {
  smsShort: 'priceSmsShort',
  smsFlash: 'priceSmsFlash',
  whatsapp: 'priceWhatsapp',
  ura: 'priceUra',
  rcs: 'priceRcs',
  uraIntegration: 'priceUraIntegration',
  enriched: 'priceEnriched',
} as const satisfies Record<PriceTableKey, keyof UserRow>;
export type PriceColumn = (typeof PRICE_COLUMNS)[PriceTableKey];
