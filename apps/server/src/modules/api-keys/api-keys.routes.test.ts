import crypto from 'node:crypto';
import { API_KEY_PATTERN, API_KEY_RATE_LIMIT } from '@ecoa/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answered, apiClient } from '../../../test/api-client.test-support.ts';
import { makeAdmin, signUpAndSignIn } from '../../../test/factories.test-support.ts';
import { injectAs } from '../../../test/http.test-support.ts';
import { createTestServer, dbKind, listeningTestConfig } from '../../../test/server.test-support.ts';
import { createManualClock } from '../../platform/clock/clock.ts';
import type { RunningServer } from '../../server.ts';
import { createApiKey, setApiRate } from './api-keys.test-support.ts';

const clock = createManualClock();
let server: RunningServer;

beforeAll(async () => {
  // Listening: the public route these tests call with keys is called as a customer would, over HTTP.
  server = await createTestServer({ work: false, clock, listen: true, config: await listeningTestConfig() });
});
afterAll(async () => {
  await server?.close();
});

/** A public route, through the typed client. */
const campaigns = (token: string | undefined) => answered(apiClient(server, token).GET('/api/v1/campaigns'));
const header = (res: { response: Response }, name: string) => res.response.headers.get(name);
const listKeys = async (token: string) => {
  const res = await injectAs(server, token, { method: 'GET', url: '/api/v1/api-keys' });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { items: Record<string, unknown>[] }).items;
};
const keyRows = async (userId: string) =>
  (await server.db.executeSql('select * from api_keys where user_id = $1 order by created_at', [userId]))
    .rows as Record<string, unknown>[];

describe(`API keys (${dbKind})`, () => {
  it('creates a key shown once, lists it without the key, stores only its hash', async () => {
    const ana = await signUpAndSignIn(server);
    const created = await createApiKey(server, ana.token, ['campaigns:read', 'messages:read'], '  ERP da loja  ');
    expect(created.key).toMatch(API_KEY_PATTERN);
    expect(Buffer.from(created.key.slice('ecoa_'.length), 'base64url')).toHaveLength(32);
    expect(created.prefix).toBe(created.key.slice(0, 12));

    const items = await listKeys(ana.token);
    expect(items).toEqual([
      {
        id: created.id,
        name: 'ERP da loja',
        prefix: created.prefix,
        scopes: ['messages:read', 'campaigns:read'],
        createdAt: clock.now().toISOString(),
        lastUsedAt: null,
      },
    ]);
    expect(JSON.stringify(items)).not.toContain(created.key.slice(12));

    const [row] = await keyRows(ana.user.id);
    expect(row!.key_hash).toBe(crypto.createHash('sha256').update(created.key).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(created.key.slice(12));

    // Two keys are never the same; the newest is listed first.
    clock.advance(1000);
    const other = await createApiKey(server, ana.token, ['lists:write']);
    expect(other.key).not.toBe(created.key);
    expect((await listKeys(ana.token)).map((k) => k.id)).toEqual([other.id, created.id]);
  });

  it('refuses a bad name or scopes with a translated error, creating nothing', async () => {
    const bia = await signUpAndSignIn(server);
    const bad = [
      [{ name: '', scopes: ['campaigns:read'] }, 'apiKeyName'],
      [{ name: '   ', scopes: ['campaigns:read'] }, 'apiKeyName'],
      [{ name: 'x'.repeat(81), scopes: ['campaigns:read'] }, 'apiKeyName'],
      [{ name: 'ERP', scopes: [] }, 'apiKeyScopes'],
      [{ name: 'ERP', scopes: ['campaigns:delete'] }, 'apiKeyScopes'],
      [{ name: 'ERP' }, 'apiKeyScopes'],
    ] as const;
    for (const [payload, messageKey] of bad) {
      const res = await injectAs(server, bia.token, { method: 'POST', url: '/api/v1/api-keys', payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json(), JSON.stringify(payload)).toMatchObject({ code: 'VALIDATION_FAILED', details: { messageKey } });
    }
    expect(await keyRows(bia.user.id)).toEqual([]);
    const longest = await createApiKey(server, bia.token, ['campaigns:read'], 'x'.repeat(80));
    expect(longest.id).toBeTruthy();
  });

  it('a key authenticates as its user on a route its scopes cover; a missing scope is 403 naming it', async () => {
    const caio = await signUpAndSignIn(server);
    const reader = await createApiKey(server, caio.token, ['campaigns:read']);
    const ok = await campaigns(reader.key);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.data).toMatchObject({ items: [] });

    const writer = await createApiKey(server, caio.token, ['campaigns:write', 'lists:write']);
    const refused = await campaigns(writer.key);
    expect(refused.statusCode).toBe(403);
    expect(refused.error).toEqual({
      code: 'API_KEY_SCOPE_MISSING',
      message: 'A chave de API não tem a permissão "campaigns:read".',
      details: { scope: 'campaigns:read' },
    });
    // A session has every scope.
    expect((await campaigns(caio.token)).statusCode).toBe(200);
  });

  it('a key on a session-only route is 403 API_KEY_NOT_ALLOWED: it cannot mint, list or revoke keys', async () => {
    const dora = await signUpAndSignIn(server);
    const key = await createApiKey(server, dora.token);
    const calls = [
      { method: 'POST', url: '/api/v1/api-keys', payload: { name: 'Outra', scopes: ['campaigns:read'] } },
      { method: 'GET', url: '/api/v1/api-keys' },
      { method: 'DELETE', url: `/api/v1/api-keys/${key.id}` },
      { method: 'GET', url: '/api/v1/me/sessions' },
      { method: 'GET', url: '/api/v1/admin/users' },
    ] as const;
    for (const call of calls) {
      const res = await injectAs(server, key.key, call);
      expect(res.statusCode, `${call.method} ${call.url}`).toBe(403);
      expect(res.json()).toMatchObject({ code: 'API_KEY_NOT_ALLOWED' });
    }
    expect(await listKeys(dora.token)).toHaveLength(1);
    // `/api/me` is a session's own statement: a key is not a session there.
    expect((await injectAs(server, key.key, { method: 'GET', url: '/api/me' })).statusCode).toBe(401);
  });

  it('revoking is at once: the next request is 401, the list drops it; another user cannot revoke it', async () => {
    const eva = await signUpAndSignIn(server);
    const stranger = await signUpAndSignIn(server);
    const key = await createApiKey(server, eva.token, ['campaigns:read']);
    expect((await campaigns(key.key)).statusCode).toBe(200);

    const theirs = await injectAs(server, stranger.token, { method: 'DELETE', url: `/api/v1/api-keys/${key.id}` });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toMatchObject({ code: 'API_KEY_NOT_FOUND' });
    expect((await campaigns(key.key)).statusCode).toBe(200);

    const revoked = await injectAs(server, eva.token, { method: 'DELETE', url: `/api/v1/api-keys/${key.id}` });
    expect(revoked.statusCode).toBe(204);
    const after = await campaigns(key.key);
    expect(after.statusCode).toBe(401);
    expect(after.error).toMatchObject({ code: 'UNAUTHORIZED' });
    expect(await listKeys(eva.token)).toEqual([]);
    const again = await injectAs(server, eva.token, { method: 'DELETE', url: `/api/v1/api-keys/${key.id}` });
    expect(again.statusCode).toBe(404);

    // An unknown key of the right shape, and a malformed one.
    expect((await campaigns(`ecoa_${crypto.randomBytes(32).toString('base64url')}`)).statusCode).toBe(401);
    expect((await campaigns('ecoa_short')).statusCode).toBe(401);
  });

  it('deactivating the user ends their keys (401), and reactivating does not bring them back', async () => {
    const admin = await signUpAndSignIn(server);
    await makeAdmin(server, admin.user.id);
    const fabio = await signUpAndSignIn(server);
    const key = await createApiKey(server, fabio.token, ['campaigns:read']);
    expect((await campaigns(key.key)).statusCode).toBe(200);

    const patch = (active: boolean) =>
      injectAs(server, admin.token, {
        method: 'PATCH',
        url: `/api/v1/admin/users/${fabio.user.id}`,
        payload: { active },
      });
    expect((await patch(false)).statusCode).toBe(200);
    expect((await campaigns(key.key)).statusCode).toBe(401);
    expect((await keyRows(fabio.user.id))[0]!.revoked_at).not.toBeNull();
    expect((await patch(true)).statusCode).toBe(200);
    expect((await campaigns(key.key)).statusCode).toBe(401);

    // Even a deactivation that did not go through the administrators' API: the key's user must be active.
    const other = await createApiKey(server, (await signUpAndSignIn(server)).token, ['campaigns:read']);
    const { rows } = await server.db.executeSql('select user_id from api_keys where id = $1', [other.id]);
    await server.db.executeSql('update users set active = false where id = $1', [
      (rows[0] as { user_id: string }).user_id,
    ]);
    expect((await campaigns(other.key)).statusCode).toBe(401);
  });

  it('rate limit per key: the burst, then 429 with Retry-After; the bucket refills with the clock', async () => {
    const gil = await signUpAndSignIn(server);
    const key = await createApiKey(server, gil.token, ['campaigns:read']);
    const { perSecond, burstSeconds } = API_KEY_RATE_LIMIT;
    const burst = perSecond * burstSeconds;
    for (let i = 1; i <= burst; i++) {
      const res = await campaigns(key.key);
      expect(res.statusCode, `request ${i}`).toBe(200);
      expect(header(res, 'ratelimit-limit')).toBe(String(burst));
      expect(header(res, 'ratelimit-remaining')).toBe(String(burst - i));
      expect(header(res, 'ratelimit-reset')).toBe(String(Math.ceil(i / perSecond)));
    }
    const limited = await campaigns(key.key);
    expect(limited.statusCode).toBe(429);
    expect(limited.error).toMatchObject({ code: 'API_KEY_RATE_LIMITED', details: { retryAfterSeconds: 1 } });
    expect(header(limited, 'retry-after')).toBe('1');
    expect(header(limited, 'ratelimit-limit')).toBe(String(burst));
    expect(header(limited, 'ratelimit-remaining')).toBe('0');
    expect(header(limited, 'ratelimit-reset')).toBe(String(burstSeconds));

    // A tenth of a second gives one request back (10/s); another key of the same user has its own bucket.
    clock.advance(100);
    expect((await campaigns(key.key)).statusCode).toBe(200);
    expect((await campaigns(key.key)).statusCode).toBe(429);
    const second = await createApiKey(server, gil.token, ['campaigns:read']);
    expect((await campaigns(second.key)).statusCode).toBe(200);
    // A session is never limited this way.
    expect(header(await campaigns(gil.token), 'ratelimit-limit')).toBeNull();

    // The bucket fills up again in burstSeconds.
    clock.advance(burstSeconds * 1000);
    const refilled = await campaigns(key.key);
    expect(header(refilled, 'ratelimit-remaining')).toBe(String(burst - 1));
  });

  it("an administrator's rate for the user applies to every key of theirs (1/s: a burst of 5)", async () => {
    const admin = await signUpAndSignIn(server);
    await makeAdmin(server, admin.user.id);
    const hugo = await signUpAndSignIn(server);
    const key = await createApiKey(server, hugo.token, ['campaigns:read']);
    const patched = await injectAs(server, admin.token, {
      method: 'PATCH',
      url: `/api/v1/admin/users/${hugo.user.id}`,
      payload: { apiRatePerSecond: 1 },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ apiRatePerSecond: 1 });
    for (let i = 0; i < 5; i++) expect((await campaigns(key.key)).statusCode).toBe(200);
    const limited = await campaigns(key.key);
    expect(limited.statusCode).toBe(429);
    expect(header(limited, 'ratelimit-limit')).toBe('5');
    clock.advance(1000);
    expect((await campaigns(key.key)).statusCode).toBe(200);

    const bad = await injectAs(server, admin.token, {
      method: 'PATCH',
      url: `/api/v1/admin/users/${hugo.user.id}`,
      payload: { apiRatePerSecond: 0 },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ details: { messageKey: 'apiRatePerSecond' } });
    await setApiRate(server, hugo.user.id, null);
    const detail = await injectAs(server, admin.token, { method: 'GET', url: `/api/v1/admin/users/${hugo.user.id}` });
    expect(detail.json()).toMatchObject({ apiRatePerSecond: null });
    expect((detail.json() as { history: { changes: object }[] }).history[0]!.changes).toEqual({
      apiRatePerSecond: { from: null, to: 1 },
    });
  });

  it('last used moves at most once a minute (not a write per request)', async () => {
    const ines = await signUpAndSignIn(server);
    const key = await createApiKey(server, ines.token, ['campaigns:read']);
    const lastUsed = async () => (await listKeys(ines.token))[0]!.lastUsedAt;
    const first = clock.now().toISOString();
    await campaigns(key.key);
    expect(await lastUsed()).toBe(first);
    clock.advance(30_000);
    await campaigns(key.key);
    expect(await lastUsed()).toBe(first);
    clock.advance(30_000);
    await campaigns(key.key);
    expect(await lastUsed()).toBe(clock.now().toISOString());
  });
});
