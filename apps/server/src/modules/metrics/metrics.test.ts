import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpAndSignIn } from '../../../test/factories.test-support.ts';
import { createTestServer, testConfig } from '../../../test/server.test-support.ts';
import type { RunningServer } from '../../server.ts';

const TOKEN = 'metrics-token-0123456789abcdef';
const auth = { authorization: `Bearer ${TOKEN}` };

type ParsedSample = { name: string; labels: Record<string, string>; value: number };

/**
 * A strict reader of the text format: every line is a HELP, a TYPE or a sample
 * `name{label="value",…} value` whose label values use only the escapes the spec allows.
 */
function parseExposition(text: string): { samples: ParsedSample[]; help: Set<string>; types: Map<string, string> } {
  const samples: ParsedSample[] = [];
  const help = new Set<string>();
  const types = new Map<string, string>();
  expect(text.endsWith('\n')).toBe(true);
  for (const line of text.slice(0, -1).split('\n')) {
    const comment = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.*)$/.exec(line);
    if (comment) {
      if (comment[1] === 'HELP') help.add(comment[2] as string);
      else types.set(comment[2] as string, comment[3] as string);
      continue;
    }
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!sample) throw new Error(`not a sample line: ${JSON.stringify(line)}`);
    const labels: Record<string, string> = {};
    const body = sample[2] ?? '';
    const pair = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"(,|$)/y;
    while (pair.lastIndex < body.length) {
      const m = pair.exec(body);
      if (!m) throw new Error(`bad labels: ${body}`);
      labels[m[1] as string] = (m[2] as string).replace(/\\([\\"n])/g, (_, c) => (c === 'n' ? '\n' : c));
    }
    const value = Number((sample[3] as string).replace('+Inf', 'Infinity'));
    expect(Number.isNaN(value), line).toBe(false);
    samples.push({ name: sample[1] as string, labels, value });
  }
  // Every sample belongs to a family with HELP and TYPE.
  for (const s of samples) {
    const family = s.name.replace(/_(bucket|sum|count)$/, '');
    expect(types.has(s.name) || types.get(family) === 'histogram', s.name).toBe(true);
    expect(help.has(s.name) || help.has(family), s.name).toBe(true);
  }
  return { samples, help, types };
}

const find = (samples: ParsedSample[], name: string, labels: Record<string, string>) =>
  samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));

describe('GET /metrics without METRICS_TOKEN', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await createTestServer({ work: false });
  });
  afterAll(() => server.close());

  it('is a 404, not the web app', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/metrics', headers: auth });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let server: RunningServer;
  let userId: string;

  beforeAll(async () => {
    server = await createTestServer({ config: testConfig({ METRICS_TOKEN: TOKEN }), work: false, isolated: true });
    // Rows the gauges must show: jobs in a queue of their own, messages on two channels.
    await server.jobs.boss.createQueue('metrics-test');
    await server.jobs.boss.send('metrics-test', {});
    await server.jobs.boss.send('metrics-test', {});
    userId = (await signUpAndSignIn(server)).user.id;
    const insert = `insert into messages (user_id, channel, to_phone, status, parts, provider, content)
      values ($1, $2, '+5511912345678', $3, 1, 'sim', '{}'::jsonb)`;
    await server.db.executeSql(insert, [userId, 'whatsapp', 'delivered']);
    await server.db.executeSql(insert, [userId, 'whatsapp', 'delivered']);
    await server.db.executeSql(insert, [userId, 'sms_short', 'failed']);
  });
  afterAll(() => server.close());

  it('refuses a missing or wrong token with 401', async () => {
    expect((await server.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    for (const authorization of [`Bearer ${TOKEN}x`, 'Bearer nope', `Basic ${TOKEN}`, TOKEN]) {
      const res = await server.app.inject({ method: 'GET', url: '/metrics', headers: { authorization } });
      expect(res.statusCode, authorization).toBe(401);
      expect(res.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    }
  });

  it('answers a well-formed exposition with the HTTP, job, message, provider and process metrics', async () => {
    expect((await server.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    const listId = randomUUID();
    await server.app.inject({ method: 'GET', url: `/api/v1/lists/${listId}` });
    await server.app.inject({ method: 'GET', url: `/api/v1/lists/${randomUUID()}` });
    await server.app.inject({ method: 'POST', url: '/no/such/route' });
    await server.app.inject({ method: 'GET', url: '/campanhas/123' });
    await server.app.inject({ method: 'GET', url: '/api/docs/json' });

    const res = await server.app.inject({ method: 'GET', url: '/metrics', headers: auth });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    const { samples, types } = parseExposition(res.body);

    expect(types.get('ecoa_http_requests_total')).toBe('counter');
    expect(types.get('ecoa_http_request_duration_seconds')).toBe('histogram');
    const health = { method: 'GET', route: '/api/health' };
    expect(find(samples, 'ecoa_http_requests_total', { ...health, status: '200' })?.value).toBe(1);
    expect(find(samples, 'ecoa_http_request_duration_seconds_count', health)?.value).toBe(1);
    expect(find(samples, 'ecoa_http_request_duration_seconds_bucket', { ...health, le: '+Inf' })?.value).toBe(1);
    // Both list reads under the one pattern (401: no session), never the URL.
    const lists = { method: 'GET', route: '/api/v1/lists/:id' };
    expect(find(samples, 'ecoa_http_requests_total', { ...lists, status: '401' })?.value).toBe(2);
    expect(res.body).not.toContain(listId);
    expect(
      find(samples, 'ecoa_http_requests_total', { method: 'POST', route: 'unmatched', status: '404' })?.value,
    ).toBe(1);
    expect(samples.some((s) => s.labels.route === '/metrics')).toBe(false);
    // The web app's catch-all is one route too.
    expect(find(samples, 'ecoa_http_requests_total', { method: 'GET', route: '/*', status: '200' })?.value).toBe(1);

    // Histogram buckets are cumulative.
    const buckets = samples.filter(
      (s) => s.name === 'ecoa_http_request_duration_seconds_bucket' && s.labels.route === '/api/v1/lists/:id',
    );
    expect(buckets.map((b) => b.value)).toEqual([...buckets.map((b) => b.value)].sort((a, b) => a - b));

    expect(find(samples, 'ecoa_jobs', { queue: 'metrics-test', state: 'created' })?.value).toBe(2);
    expect(find(samples, 'ecoa_jobs', { queue: 'metrics-test', state: 'active' })?.value).toBe(0);
    expect(find(samples, 'ecoa_messages', { channel: 'whatsapp', status: 'delivered' })?.value).toBe(2);
    expect(find(samples, 'ecoa_messages', { channel: 'sms_short', status: 'failed' })?.value).toBe(1);
    expect(find(samples, 'ecoa_messages', { channel: 'rcs', status: 'queued' })?.value).toBe(0);

    const providers = samples.filter((s) => s.name === 'ecoa_provider_up');
    expect(providers.map((p) => p.labels.provider).sort()).toEqual(
      server.providers.registry
        .all()
        .map((p) => p.name)
        .sort(),
    );
    for (const p of providers) expect([0, 1]).toContain(p.value);

    for (const name of ['process_resident_memory_bytes', 'process_cpu_seconds_total', 'process_start_time_seconds']) {
      expect(find(samples, name, {})?.value, name).toBeGreaterThan(0);
    }
    expect(find(samples, 'nodejs_eventloop_lag_seconds', {})?.value).toBeGreaterThanOrEqual(0);
  });

  it('counts the previous scrape of nothing but other routes', async () => {
    const before = parseExposition((await server.app.inject({ method: 'GET', url: '/metrics', headers: auth })).body);
    await server.app.inject({ method: 'GET', url: '/api/health' });
    const after = parseExposition((await server.app.inject({ method: 'GET', url: '/metrics', headers: auth })).body);
    const count = (samples: ParsedSample[]) =>
      find(samples, 'ecoa_http_requests_total', { method: 'GET', route: '/api/health', status: '200' })?.value ?? 0;
    expect(count(after.samples) - count(before.samples)).toBe(1);
  });
});
