import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLoginCode, signUpAndSignIn } from '../../../test/factories.test-support.ts';
import { createTestServer, testConfig } from '../../../test/server.test-support.ts';
import type { RunningServer } from '../../server.ts';

/**
 * The client IP feeds the per-IP abuse limits and the sessions list. X-Forwarded-For is believed
 * only from a trusted proxy (TRUST_PROXY, default loopback); anyone else cannot pick an IP.
 */
async function sessionIps(server: RunningServer, token: string): Promise<string[]> {
  const res = await server.app.inject({
    method: 'GET',
    url: '/api/v1/me/sessions',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { items: { ip: string | null }[] }).items.map((s) => s.ip ?? '');
}

describe('client IP behind proxies', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await createTestServer({ config: testConfig() });
  });
  afterAll(async () => server.close());

  it('ignores X-Forwarded-For from a direct client, believes it from a loopback proxy', async () => {
    const { email } = await signUpAndSignIn(server);
    const spoofer = await signInWithHeaders(server, email, '203.0.113.9', '198.51.100.7');
    const proxied = await signInWithHeaders(server, email, '127.0.0.1', '198.51.100.8');
    const ips = await sessionIps(server, proxied);
    expect(ips).toContain('203.0.113.9');
    expect(ips).toContain('198.51.100.8');
    expect(ips).not.toContain('198.51.100.7');
    expect(spoofer).not.toBe(proxied);
  });
});

async function signInWithHeaders(server: RunningServer, email: string, remoteAddress: string, forwardedFor: string) {
  const headers = { 'x-forwarded-for': forwardedFor };
  const requested = await server.app.inject({
    method: 'POST',
    url: '/api/auth/request-code',
    payload: { email },
    remoteAddress,
    headers,
  });
  expect(requested.statusCode, requested.body).toBe(200);
  const login = await server.app.inject({
    method: 'POST',
    url: '/api/auth/login?remainLogin=false',
    payload: { email, code: readLoginCode(server, email), remainLogin: false },
    remoteAddress,
    headers,
  });
  expect(login.statusCode, login.body).toBe(200);
  return (login.json() as { accessToken: string }).accessToken;
}
