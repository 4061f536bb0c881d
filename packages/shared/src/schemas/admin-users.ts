import { z } from 'zod';
import { ACCESS_LEVELS } from '../enums.ts';
import { VALIDATION_MESSAGES } from '../errors/texts.ts';
import { priceToTenThousandths } from '../money.ts';
import { accountContactFields } from './account.ts';
import { API_KEY_RATE_LIMIT } from './api-keys.ts';
import { PRICE_TABLE_FIELDS, type PriceTableKey } from './auth.ts';

const PRICE_MESSAGE = 'Preço inválido: use um valor em reais, nunca negativo, com até 4 casas decimais.';
const MAX_PRICE_REAIS = 1_000_000;

/** A unit price in reais (≥ 0, at most four decimals) → exact integer ten-thousandths. */
const priceInReais = z
  .number({ error: PRICE_MESSAGE })
  .min(0, PRICE_MESSAGE)
  .max(MAX_PRICE_REAIS, PRICE_MESSAGE)
  .refine((v) => priceToTenThousandths(v) !== null, PRICE_MESSAGE)
  .transform((v) => priceToTenThousandths(v) as number);

/**
 * `PATCH /api/v1/admin/users/:id`: the fields an administrator may change. The web sends unit
 * prices in reais (`AdminUserPatch`); the server receives them as exact ten-thousandths.
 */
export const adminUserPatchSchema = z
  .object({
    active: z.boolean({ error: 'O campo "active" deve ser verdadeiro ou falso.' }).optional(),
    accessLevel: z.enum(ACCESS_LEVELS, { error: 'Nível de acesso inválido.' }).optional(),
    priceTable: z
      .object(
        Object.fromEntries(PRICE_TABLE_FIELDS.map((k) => [k, priceInReais.optional()])) as Record<
          PriceTableKey,
          z.ZodOptional<typeof priceInReais>
        >,
      )
      .strict()
      .optional(),
    /** permissions.enriched of the spec: 'all' grants enrichment. */
    permissions: z
      .object({ enriched: z.array(z.string().trim().min(1).max(40)).max(20) }, { error: 'Permissões inválidas.' })
      .strict()
      .optional(),
    /** The user's API keys' sustained requests per second (burst 5×); null = the default (API_KEY_RATE_LIMIT). */
    apiRatePerSecond: z
      .number({ error: VALIDATION_MESSAGES.apiRatePerSecond })
      .int(VALIDATION_MESSAGES.apiRatePerSecond)
      .min(1, VALIDATION_MESSAGES.apiRatePerSecond)
      .max(API_KEY_RATE_LIMIT.maxPerSecond, VALIDATION_MESSAGES.apiRatePerSecond)
      .nullable()
      .optional(),
  })
  .strict();
export type AdminUserPatch = z.input<typeof adminUserPatchSchema>;

/** A user as administrators see it (`GET /api/v1/admin/users` items, and the PATCH answer). */
export const adminUserSchema = z.object({
  id: z.string(),
  name: z.string(),
  fullName: z.string(),
  ...accountContactFields,
  createdAt: z.string(),
  active: z.boolean(),
  accessLevel: z.enum(ACCESS_LEVELS),
  isNewUser: z.boolean(),
  /** Reais, like `/api/me` (blueprint: money in JSON is reais as a number). */
  balance: z.object({ money: z.number() }),
  /** Unit prices in reais (keys in PRICE_TABLE_FIELDS order). */
  priceTable: z.object(
    Object.fromEntries(PRICE_TABLE_FIELDS.map((k) => [k, z.number()])) as Record<PriceTableKey, z.ZodNumber>,
  ),
  permissions: z.object({ enriched: z.array(z.string()) }),
  /** Requests per second of the user's API keys; null = the default (`API_KEY_RATE_LIMIT`). */
  apiRatePerSecond: z.number().nullable(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

/** One administrative change in a user's history. */
export const auditEntrySchema = z.object({
  id: z.string(),
  action: z.string(),
  /** field → {from, to}; fields in the API's words (`active`, `priceTable.smsShort`, …), prices in reais. */
  changes: z.record(z.string(), z.object({ from: z.unknown(), to: z.unknown() })),
  createdAt: z.string(),
  actor: z.object({ id: z.string(), name: z.string(), email: z.string() }),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** `GET /api/v1/admin/users/:id`: the user with the history of administrative changes, newest first. */
export const adminUserDetailSchema = adminUserSchema.extend({ history: z.array(auditEntrySchema) });
export type AdminUserDetail = z.infer<typeof adminUserDetailSchema>;
