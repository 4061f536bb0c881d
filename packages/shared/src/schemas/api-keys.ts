import { z } from 'zod';
import { API_SCOPES } from '../enums.ts';
import { VALIDATION_MESSAGES } from '../errors/texts.ts';

/** Every key starts with this: `ecoa_` + base64url of 32 random bytes (43 characters). */
export const API_KEY_PREFIX = 'ecoa_';
/** An API key as it is written: the prefix and 43 base64url characters (a session token never has this shape). */
export const API_KEY_PATTERN = /^ecoa_[A-Za-z0-9_-]{43}$/;
/** How much of a key the lists show (`ecoa_` and 7 more characters): enough to tell keys apart, useless to guess. */
export const API_KEY_SHOWN_PREFIX_LENGTH = 12;
export const API_KEY_NAME_MAX = 80;

/**
 * The rate limit of each key (a token bucket per key, per server process): `perSecond` requests
 * a second sustained, bursts up to `burstSeconds` × `perSecond` at once. An administrator may set
 * another `perSecond` per user (`apiRatePerSecond`; null = this default).
 */
export const API_KEY_RATE_LIMIT = { perSecond: 10, burstSeconds: 5, maxPerSecond: 1000 } as const;

/** The bucket of a user's keys: their own rate (or the default) and its burst. */
export function apiKeyRate(perSecond: number | null | undefined): { perSecond: number; burst: number } {
  const rate = perSecond ?? API_KEY_RATE_LIMIT.perSecond;
  return { perSecond: rate, burst: rate * API_KEY_RATE_LIMIT.burstSeconds };
}

/** `POST /api/v1/api-keys`: a name (1..80) and a non-empty set of scopes. */
export const createApiKeySchema = z.object({
  name: z
    .string({ error: VALIDATION_MESSAGES.apiKeyName })
    .trim()
    .min(1, VALIDATION_MESSAGES.apiKeyName)
    .max(API_KEY_NAME_MAX, VALIDATION_MESSAGES.apiKeyName),
  scopes: z
    .array(z.enum(API_SCOPES, { error: VALIDATION_MESSAGES.apiKeyScopes }), { error: VALIDATION_MESSAGES.apiKeyScopes })
    .min(1, VALIDATION_MESSAGES.apiKeyScopes)
    .max(API_SCOPES.length * 2, VALIDATION_MESSAGES.apiKeyScopes)
    .transform((scopes) => API_SCOPES.filter((scope) => scopes.includes(scope))),
});
export type CreateApiKeyInput = z.input<typeof createApiKeySchema>;

/** The answer of a creation: the only time the whole key is shown. */
export const apiKeyCreatedSchema = z.object({ id: z.string(), key: z.string(), prefix: z.string() });
export type ApiKeyCreated = z.infer<typeof apiKeyCreatedSchema>;

/** One live key in `GET /api/v1/api-keys` (never the key nor its hash). */
export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  scopes: z.array(z.enum(API_SCOPES)),
  /** ISO 8601 times; lastUsedAt moves at most about once a minute. */
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;
