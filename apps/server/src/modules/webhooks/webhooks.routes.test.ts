import { describe, expect, it } from 'vitest';
import { answered, apiClient } from '../../../test/api-client.test-support.ts';
import { signUpAndSignIn } from '../../../test/factories.test-support.ts';
import { openBeforeAll } from '../../../test/hooks.test-support.ts';
import { asUser } from '../../../test/http.test-support.ts';
import { createTestServer, dbKind, listeningTestConfig, testConfig } from '../../../test/server.test-support.ts';
import type { RunningServer } from '../../server.ts';

describe(`webhook endpoints API (${dbKind})`, () => {
  let server: RunningServer;
  openBeforeAll(
    // Listening: the tests that call the public routes do it through the typed client, over HTTP.
    async () => createTestServer({ work: false, listen: true, config: await listeningTestConfig() }),
    (opened) => (server = opened),
  );

  it('creates an endpoint with a whsec_ secret shown once, lists, reads, changes and deletes it', async () => {
    const ecoa = apiClient(server, (await signUpAndSignIn(server)).token);
    const created = await answered(
      ecoa.POST('/api/v1/webhook-endpoints', {
        body: { url: 'http://127.0.0.1:9/hooks', events: ['message.status', 'message.reply'], description: 'ERP' },
      }),
    );
    expect(created.statusCode, created.body).toBe(201);
    const endpoint = created.data!;
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(endpoint.secret.slice(6), 'base64')).toHaveLength(24);
    expect(endpoint).toMatchObject({ url: 'http://127.0.0.1:9/hooks', enabled: true, description: 'ERP' });

    const list = await answered(ecoa.GET('/api/v1/webhook-endpoints'));
    expect(list.data).toHaveLength(1);
    expect(list.body).not.toContain(endpoint.secret);
    expect(list.data![0]).not.toHaveProperty('secret');
    const path = { id: endpoint.id };
    const one = await ecoa.GET('/api/v1/webhook-endpoints/{id}', { params: { path } });
    expect(one.data).toMatchObject({ id: endpoint.id, events: ['message.status', 'message.reply'] });
    expect(one.data).not.toHaveProperty('secret');

    const patched = await answered(
      ecoa.PATCH('/api/v1/webhook-endpoints/{id}', {
        params: { path },
        body: { events: ['campaign.status'], enabled: false, description: 'CRM' },
      }),
    );
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.data).toMatchObject({ events: ['campaign.status'], enabled: false, description: 'CRM' });

    const deleted = await ecoa.DELETE('/api/v1/webhook-endpoints/{id}', { params: { path } });
    expect(deleted.response.status).toBe(204);
    expect((await ecoa.GET('/api/v1/webhook-endpoints/{id}', { params: { path } })).response.status).toBe(404);
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
    const ecoa = apiClient(server, (await signUpAndSignIn(server)).token);
    const set = await answered(
      ecoa.PUT('/api/v1/balance-alerts', { body: { thresholds: { SMSSHORT: 100, BALANCE: 5000 } } }),
    );
    expect(set.statusCode, set.body).toBe(200);
    expect(set.data).toEqual({ thresholds: { SMSSHORT: 100, BALANCE: 5000 } });
    await ecoa.PUT('/api/v1/balance-alerts', { body: { thresholds: { SMSSHORT: null } } });
    expect((await ecoa.GET('/api/v1/balance-alerts')).data).toEqual({
      thresholds: { BALANCE: 5000 },
    });
    const bad = await ecoa.PUT('/api/v1/balance-alerts', { body: { thresholds: { SMSSHORT: -1 } } });
    expect(bad.response.status).toBe(400);
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
