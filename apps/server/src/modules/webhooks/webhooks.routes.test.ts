import { describe, expect, it } from 'vitest';
import { signUpAndSignIn } from '../../../test/factories.test-support.ts';
import { openBeforeAll } from '../../../test/hooks.test-support.ts';
import { asUser } from '../../../test/http.test-support.ts';
import { createTestServer, dbKind, testConfig } from '../../../test/server.test-support.ts';
import type { RunningServer } from '../../server.ts';

describe(`webhook endpoints API (${dbKind})`, () => {
  let server: RunningServer;
  openBeforeAll(
    () => createTestServer({ work: false }),
    (opened) => (server = opened),
  );

  it('creates an endpoint with a whsec_ secret shown once, lists, reads, changes and deletes it', async () => {
    const as = asUser(server, (await signUpAndSignIn(server)).token);
    const created = await as({
      method: 'POST',
      url: '/api/v1/webhook-endpoints',
      payload: { url: 'http://127.0.0.1:9/hooks', events: ['message.status', 'message.reply'], description: 'ERP' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const endpoint = created.json();
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(endpoint.secret.slice(6), 'base64')).toHaveLength(24);
    expect(endpoint).toMatchObject({ url: 'http://127.0.0.1:9/hooks', enabled: true, description: 'ERP' });

    const list = await as({ method: 'GET', url: '/api/v1/webhook-endpoints' });
    expect(list.json()).toHaveLength(1);
    expect(list.body).not.toContain(endpoint.secret);
    expect(list.json()[0]).not.toHaveProperty('secret');
    const one = await as({ method: 'GET', url: `/api/v1/webhook-endpoints/${endpoint.id}` });
    expect(one.json()).toMatchObject({ id: endpoint.id, events: ['message.status', 'message.reply'] });
    expect(one.json()).not.toHaveProperty('secret');

    const patched = await as({
      method: 'PATCH',
      url: `/api/v1/webhook-endpoints/${endpoint.id}`,
      payload: { events: ['campaign.status'], enabled: false, description: 'CRM' },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ events: ['campaign.status'], enabled: false, description: 'CRM' });

    const deleted = await as({ method: 'DELETE', url: `/api/v1/webhook-endpoints/${endpoint.id}` });
    expect(deleted.statusCode).toBe(204);
    expect((await as({ method: 'GET', url: `/api/v1/webhook-endpoints/${endpoint.id}` })).statusCode).toBe(404);
  });

  it("refuses bad input with a clear error, changing nothing, and never shows another account's endpoint", async () => {
    const as = asUser(server, (await signUpAndSignIn(server)).token);
    const bad = [
      { url: 'not a url', events: ['message.status'] },
      { url: 'ftp://example.com/x', events: ['message.status'] },
      { url: 'http://127.0.0.1/x', events: [] },
      { url: 'http://127.0.0.1/x', events: ['message.sent'] },
      { url: 'https://user:pw@example.com/x', events: ['message.status'] },
    ];
    const codes = [];
    for (const payload of bad) {
      const res = await as({ method: 'POST', url: '/api/v1/webhook-endpoints', payload });
      expect(res.statusCode, res.body).toBe(400);
      codes.push(res.json().code);
    }
    expect(codes).toEqual([
      'WEBHOOK_URL_INVALID',
      'WEBHOOK_URL_INVALID',
      'VALIDATION_FAILED',
      'VALIDATION_FAILED',
      'WEBHOOK_URL_INVALID',
    ]);
    expect((await as({ method: 'GET', url: '/api/v1/webhook-endpoints' })).json()).toEqual([]);

    const mine = (
      await as({
        method: 'POST',
        url: '/api/v1/webhook-endpoints',
        payload: { url: 'http://127.0.0.1:9/a', events: ['ura.digits'] },
      })
    ).json();
    const other = asUser(server, (await signUpAndSignIn(server)).token);
    for (const [method, url] of [
      ['GET', `/api/v1/webhook-endpoints/${mine.id}`],
      ['DELETE', `/api/v1/webhook-endpoints/${mine.id}`],
      ['POST', `/api/v1/webhook-endpoints/${mine.id}/rotate-secret`],
      ['POST', `/api/v1/webhook-endpoints/${mine.id}/test`],
      ['GET', `/api/v1/webhook-endpoints/${mine.id}/deliveries`],
    ] as const) {
      const res = await other({ method, url });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().code).toBe('WEBHOOK_ENDPOINT_NOT_FOUND');
    }
    expect((await as({ method: 'GET', url: `/api/v1/webhook-endpoints/${mine.id}` })).statusCode).toBe(200);
  });

  it('keeps balance.low thresholds per credit type, cleared with null', async () => {
    const as = asUser(server, (await signUpAndSignIn(server)).token);
    const set = await as({
      method: 'PUT',
      url: '/api/v1/balance-alerts',
      payload: { thresholds: { SMSSHORT: 100, BALANCE: 5000 } },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual({ thresholds: { SMSSHORT: 100, BALANCE: 5000 } });
    await as({ method: 'PUT', url: '/api/v1/balance-alerts', payload: { thresholds: { SMSSHORT: null } } });
    expect((await as({ method: 'GET', url: '/api/v1/balance-alerts' })).json()).toEqual({
      thresholds: { BALANCE: 5000 },
    });
    const bad = await as({ method: 'PUT', url: '/api/v1/balance-alerts', payload: { thresholds: { SMSSHORT: -1 } } });
    expect(bad.statusCode).toBe(400);
  });
});

describe(`webhook URLs outside a local trial (${dbKind})`, () => {
  let server: RunningServer;
  openBeforeAll(
    () => createTestServer({ work: false, config: { ...testConfig(), allowPrivateOutbound: false } }),
    (opened) => (server = opened),
  );

  it('refuses http://, private and local addresses (SSRF), and accepts a public https address', async () => {
    const as = asUser(server, (await signUpAndSignIn(server)).token);
    const post = (url: string) =>
      as({ method: 'POST', url: '/api/v1/webhook-endpoints', payload: { url, events: ['message.status'] } });
    for (const url of [
      'https://127.0.0.1/hooks',
      'https://localhost:8443/hooks',
      'https://10.1.2.3/hooks',
      'https://192.168.0.10/hooks',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/hooks',
    ]) {
      const res = await post(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().code, url).toBe('WEBHOOK_URL_PRIVATE');
    }
    expect((await post('http://203.0.113.10/hooks')).json().code).toBe('WEBHOOK_URL_INVALID');
    expect((await post('https://203.0.113.10/hooks')).statusCode).toBe(201);
    const patch = await as({
      method: 'PATCH',
      url: `/api/v1/webhook-endpoints/${(await as({ method: 'GET', url: '/api/v1/webhook-endpoints' })).json()[0].id}`,
      payload: { url: 'https://10.0.0.1/x' },
    });
    expect(patch.json().code).toBe('WEBHOOK_URL_PRIVATE');
  });
});
