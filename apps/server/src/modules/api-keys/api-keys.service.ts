import {
  API_KEY_SHOWN_PREFIX_LENGTH,
  type ApiKey,
  type ApiKeyCreated,
  apiKeyRate,
  type createApiKeySchema,
} from '@ecoa/shared';
import type { z } from 'zod';
import { hashApiKey, newApiKey } from '../../platform/auth/crypto.ts';
import type { ApiKeyCaller } from '../../platform/auth/guard.ts';
import type { Clock } from '../../platform/clock/clock.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import type { Logger } from '../../platform/logger.ts';
import type { ApiKeysRepository } from './api-keys.repository.ts';
import type { ApiKeyRow } from './api-keys.schema.ts';

/** last_used_at moves at most this often per key (not a write per request). */
export const LAST_USED_EVERY_MS = 60_000;

export type CreateApiKeyInput = z.output<typeof createApiKeySchema>;

function toApiKeyDto(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

/**
 * The developers' API keys: create (the key shown once, its hash kept), list, revoke, and the
 * check behind the guard (`authenticate`: key → its user, scopes and rate).
 */
export function createApiKeysService(deps: { repo: ApiKeysRepository; clock: Clock; logger: Logger }) {
  const { repo, clock } = deps;
  const log = deps.logger.child({ module: 'api-keys' });

  return {
    async create(userId: string, input: CreateApiKeyInput): Promise<ApiKeyCreated> {
      const key = newApiKey();
      const row = await repo.insert({
        userId,
        name: input.name,
        prefix: key.slice(0, API_KEY_SHOWN_PREFIX_LENGTH),
        keyHash: hashApiKey(key),
        scopes: input.scopes,
        createdAt: clock.now(),
      });
      log.info({ userId, apiKeyId: row.id, scopes: row.scopes }, 'API key created');
      return { id: row.id, key, prefix: row.prefix };
    },

    async list(userId: string): Promise<ApiKey[]> {
      return (await repo.listLive(userId)).map(toApiKeyDto);
    },

    /** Revokes at once: the next request with it is 401. Another user's key is answered like an unknown one. */
    async revoke(userId: string, id: string): Promise<void> {
      if (!(await repo.revoke(userId, id, clock.now()))) throw new AppError('API_KEY_NOT_FOUND');
      log.info({ userId, apiKeyId: id }, 'API key revoked');
    },

    /** Every key of the user (deactivation, in its transaction). */
    revokeAll: (userId: string, tx?: DbOrTx) => repo.revokeAll(userId, clock.now(), tx),

    /** The guard's check: a live key of an active account → its caller; anything else → null. */
    async authenticate(key: string): Promise<ApiKeyCaller | null> {
      const found = await repo.findLive(hashApiKey(key));
      if (!found) return null;
      const now = clock.now();
      if (!found.lastUsedAt || now.getTime() - found.lastUsedAt.getTime() >= LAST_USED_EVERY_MS) {
        await repo.touch(found.id, now, new Date(now.getTime() - LAST_USED_EVERY_MS));
      }
      const { apiRatePerSecond, ...user } = found.user;
      return {
        user: { ...user, sessionId: null, apiKeyId: found.id, scopes: found.scopes },
        rate: apiKeyRate(apiRatePerSecond),
      };
    },
  };
}
export type ApiKeysService = ReturnType<typeof createApiKeysService>;
