import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../clock/clock.ts';
import { registerErrorHandling } from '../http/error-handler.ts';
import { type AuthUser, createAuthGuard, currentUser, readToken } from './guard.ts';

const TOKEN = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ';

describe('readToken', () => {
  it('reads "Bearer <token>" (any case) and the raw token', () => {
    expect(readToken(`Bearer ${TOKEN}`)).toBe(TOKEN);
    expect(readToken(`bearer   ${TOKEN} `)).toBe(TOKEN);
    expect(readToken(TOKEN)).toBe(TOKEN);
    expect(readToken([`Bearer ${TOKEN}`])).toBe(TOKEN);
  });

  it('finds nothing in empty, foreign or malformed headers', () => {
    for (const header of [undefined, '', '   ', 'Bearer', 'Bearer ', 'Basic dXNlcjpwYXNz', 'Bearer a b', 'short']) {
      expect(readToken(header), String(header)).toBeUndefined();
    }
  });
});

describe('createAuthGuard', () => {
  const users: Record<string, AuthUser> = {
    [TOKEN]: { id: 'u1', email: 'u@x.com', name: 'U', accessLevel: 'USER', language: 'pt', sessionId: 's1' },
    [TOKEN.replace('a', 'z')]: {
      id: 'a1',
      email: 'a@x.com',
      name: 'A',
      accessLevel: 'ADMINISTRATOR',
      language: 'pt',
      sessionId: 's2',
    },
  };
  async function app() {
    const guard = createAuthGuard({
      sessions: { authenticate: async (token) => users[token] ?? null },
      clock: systemClock,
    });
    const instance = Fastify();
    registerErrorHandling(instance);
    instance.decorateRequest('user', undefined);
    instance.get('/user', { onRequest: guard.requireUser }, async (request) => ({ id: currentUser(request).id }));
    instance.get('/admin', { onRequest: guard.requireAdmin }, async (request) => ({ id: currentUser(request).id }));
    instance.get('/open', async (request) => ({ user: request.user ?? null }));
    instance.post('/user', { onRequest: guard.requireUser }, async (request) => ({ body: request.body }));
    instance.post('/admin', { onRequest: guard.requireAdmin }, async (request) => ({ body: request.body }));
    await instance.ready();
    return instance;
  }

  it('lets a valid session through and types request.user', async () => {
    const a = await app();
    const res = await a.inject({ url: '/user', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.json()).toEqual({ id: 'u1' });
    expect((await a.inject({ url: '/open', headers: { authorization: TOKEN } })).json()).toEqual({ user: null });
  });

  it('answers 401 UNAUTHORIZED without a token or with an unknown one', async () => {
    const a = await app();
    for (const headers of [{}, { authorization: `Bearer ${TOKEN.toUpperCase()}` }]) {
      const res = await a.inject({ url: '/user', headers });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'UNAUTHORIZED', message: expect.any(String) });
    }
  });

  it('answers 403 FORBIDDEN to a non-administrator on requireAdmin, 401 without a session', async () => {
    const a = await app();
    const user = await a.inject({ url: '/admin', headers: { authorization: TOKEN } });
    expect(user.statusCode).toBe(403);
    expect(user.json()).toMatchObject({ code: 'FORBIDDEN', message: 'Acesso restrito a administradores.' });
    expect((await a.inject({ url: '/admin' })).statusCode).toBe(401);
    const admin = await a.inject({ url: '/admin', headers: { authorization: `Bearer ${TOKEN.replace('a', 'z')}` } });
    expect(admin.json()).toEqual({ id: 'a1' });
  });

  it('refuses before the body is parsed: a malformed body gets 401 or 403, never a parsing 400', async () => {
    const a = await app();
    const broken = { payload: '{"broken": ', headers: { 'content-type': 'application/json' } };
    const anonymous = await a.inject({ method: 'POST', url: '/user', ...broken });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    const user = await a.inject({
      method: 'POST',
      url: '/admin',
      payload: broken.payload,
      headers: { ...broken.headers, authorization: TOKEN },
    });
    expect(user.statusCode).toBe(403);
    const signedIn = await a.inject({
      method: 'POST',
      url: '/user',
      payload: broken.payload,
      headers: { ...broken.headers, authorization: TOKEN },
    });
    expect(signedIn.statusCode).toBe(400); // past the guard, the body is parsed as usual
  });

  it('an API key passes requireScope with its scope only, and no session route', async () => {
    const KEY = `ecoa_${'k'.repeat(43)}`;
    const keyUser = {
      id: 'u1',
      email: 'u@x.com',
      name: 'U',
      accessLevel: 'ADMINISTRATOR' as const,
      language: 'pt' as const,
      sessionId: null,
      apiKeyId: 'key1',
      scopes: ['campaigns:read' as const],
    };
    const guard = createAuthGuard({
      sessions: { authenticate: async (token) => users[token] ?? null },
      apiKeys: {
        authenticate: async (key) => (key === KEY ? { user: keyUser, rate: { perSecond: 1, burst: 100 } } : null),
      },
      clock: systemClock,
    });
    const a = Fastify();
    registerErrorHandling(a);
    a.decorateRequest('user', undefined);
    a.get('/read', { onRequest: guard.requireScope('campaigns:read') }, async (request) => currentUser(request));
    a.get('/write', { onRequest: guard.requireScope('campaigns:write') }, async () => ({ ok: true }));
    a.get('/user', { onRequest: guard.requireUser }, async () => ({ ok: true }));
    a.get('/admin', { onRequest: guard.requireAdmin }, async () => ({ ok: true }));
    await a.ready();
    const as = (url: string, token: string) => a.inject({ url, headers: { authorization: `Bearer ${token}` } });

    const read = await as('/read', KEY);
    expect(read.json()).toMatchObject({ id: 'u1', apiKeyId: 'key1', sessionId: null });
    expect(read.headers['ratelimit-limit']).toBe('100');
    expect((await as('/write', KEY)).json()).toMatchObject({
      code: 'API_KEY_SCOPE_MISSING',
      details: { scope: 'campaigns:write' },
    });
    for (const url of ['/user', '/admin']) {
      const res = await as(url, KEY);
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toMatchObject({ code: 'API_KEY_NOT_ALLOWED' });
    }
    // A session has every scope; an unknown key is 401.
    expect((await as('/write', TOKEN)).json()).toEqual({ ok: true });
    expect((await as('/read', `ecoa_${'x'.repeat(43)}`)).statusCode).toBe(401);
  });
});
