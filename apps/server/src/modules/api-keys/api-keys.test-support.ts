/**
 * API keys for tests, made the way a user makes them (`POST /api/v1/api-keys` with a session).
 *
 *   const key = await createApiKey(server, user.token, ['campaigns:read']);
 *   await injectAs(server, key.key, { method: 'GET', url: '/api/v1/campaigns' });
 */
import { API_SCOPES, type ApiKeyCreated, type ApiScope } from '@ecoa/shared';
import { injectAs } from '../../../test/http.test-support.ts';
import type { RunningServer } from '../../server.ts';

export async function createApiKey(
  server: RunningServer,
  sessionToken: string,
  scopes: readonly ApiScope[] = API_SCOPES,
  name = 'Integração de teste',
): Promise<ApiKeyCreated> {
  const res = await injectAs(server, sessionToken, {
    method: 'POST',
    url: '/api/v1/api-keys',
    payload: { name, scopes },
  });
  if (res.statusCode !== 201) throw new Error(`POST /api/v1/api-keys ${res.statusCode}: ${res.body}`);
  return res.json() as ApiKeyCreated;
}

/** Sets the user's keys' rate (requests per second; null = the default), as an administrator would. */
export async function setApiRate(server: RunningServer, userId: string, perSecond: number | null): Promise<void> {
  await server.db.executeSql('update users set api_rate_per_second = $1 where id = $2', [perSecond, userId]);
}
