import { describe, expect, it } from 'vitest';
import { bearer, signUpAndSignIn, signupPayload, uniqueIp } from '../../../test/factories.test-support.ts';
import { openBeforeAll } from '../../../test/hooks.test-support.ts';
import { createTestServer, dbKind } from '../../../test/server.test-support.ts';
import type { RunningServer } from '../../server.ts';
import { findDisallowedText } from './input-guard.ts';

describe('findDisallowedText', () => {
  it('names the first field with a disallowed character, keys included', () => {
    expect(findDisallowedText({ a: 'ok', b: { c: ['x', 'y\u0000'] } })).toEqual({
      field: 'b.c.1',
      character: 'U+0000',
    });
    expect(findDisallowedText({ 'ch\u0007ave': 1 })).toEqual({ field: '', character: 'U+0007' });
    expect(findDisallowedText({ text: 'linha 1\nlinha 2\ttab', emoji: '😀' })).toBeUndefined();
    expect(findDisallowedText({ lone: 'a\ud800' })).toEqual({ field: 'lone', character: 'U+D800' });
  });

  it('walks a deeply nested body without overflowing the stack', () => {
    let deep: unknown = 'fim\u0000';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(findDisallowedText(deep)?.character).toBe('U+0000');
  });
});

describe(`API input with control characters (${dbKind})`, () => {
  let server: RunningServer;
  openBeforeAll(createTestServer, (opened) => (server = opened));

  it('refuses a NUL in a JSON field with a clear 400, and changes nothing', async () => {
    const { token } = await signUpAndSignIn(server);
    const before = (
      await server.app.inject({ method: 'GET', url: '/api/v1/me/profile', headers: bearer(token) })
    ).json();
    const res = await server.app.inject({
      method: 'PATCH',
      url: '/api/v1/me/profile',
      headers: bearer(token),
      payload: { fullName: 'Nome com \u0000 nulo' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'TEXT_INVALID_CHARACTERS',
      details: { field: 'fullName', character: 'U+0000' },
    });
    const after = (
      await server.app.inject({ method: 'GET', url: '/api/v1/me/profile', headers: bearer(token) })
    ).json();
    expect(after).toEqual(before);
  });

  it('refuses a sign-up whose company name has a control character, creating no account', async () => {
    const payload = signupPayload({ name: 'Empresa\u001b[31m' });
    const res = await server.app.inject({ method: 'POST', url: '/api/user', payload, remoteAddress: uniqueIp() });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('TEXT_INVALID_CHARACTERS');
    const { rows } = await server.db.executeSql('select count(*)::int as n from users where email = $1', [
      payload.email,
    ]);
    expect(rows).toEqual([{ n: 0 }]);
  });

  it('refuses a NUL in a query string', async () => {
    const { token } = await signUpAndSignIn(server);
    const res = await server.app.inject({ method: 'GET', url: '/api/v1/opt-outs?q=%00', headers: bearer(token) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'TEXT_INVALID_CHARACTERS', details: { field: 'query.q' } });
  });
});
