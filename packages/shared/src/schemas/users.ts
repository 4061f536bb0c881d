import { z } from 'zod';
import { ACCESS_LEVELS } from '../enums.ts';
import type { PriceTableKey } from './auth.ts';

/** Unit prices in reais (up to 4 decimals), one per price-table key. */
export type PriceTable = Record<PriceTableKey, number>;

/** `GET /api/me` (and `POST /api/user`): exactly the spec's fields (plus `id`). Money and prices in reais. */
export const publicUserSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  accessLevel: z.enum(ACCESS_LEVELS),
  isNewUser: z.boolean(),
  userProfileImageLink: z.string().nullable(),
  balance: z.object({ money: z.number() }),
  permissions: z.object({ enriched: z.array(z.string()) }),
  // The spec's order ("User (session)"), kept on the wire.
  priceTable: z.object({
    smsShort: z.number(),
    smsFlash: z.number(),
    whatsapp: z.number(),
    ura: z.number(),
    rcs: z.number(),
    uraIntegration: z.number(),
    enriched: z.number(),
  } satisfies Record<PriceTableKey, z.ZodNumber>),
});
export type PublicUser = z.infer<typeof publicUserSchema>;

/** `POST /api/auth/login`: the session token and the signed-in user. */
export const loginResponseSchema = z.object({ accessToken: z.string(), user: publicUserSchema });
export type LoginResponse = z.infer<typeof loginResponseSchema>;
