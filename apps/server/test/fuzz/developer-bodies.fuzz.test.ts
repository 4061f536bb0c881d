import { API_SCOPES, CREDIT_TYPES, WEBHOOK_EVENT_TYPES } from '@ecoa/shared';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.ts';
import { bearer, signUpAndSignIn } from '../factories.test-support.ts';
import { createTestServer, dbKind } from '../server.test-support.ts';
import { type FuzzOutcome, fuzz } from './harness.test-support.ts';

const BUDGET = { runs: 300, timeLimitMs: Number(process.env.FUZZ_SECONDS ?? 20) * 1000, maxRssGrowthMb: 300 };
/** How the developers' routes other than sending refuse a body: each with its own code, never a 500. */
const CODES = [
  'VALIDATION_FAILED',
  'WEBHOOK_URL_INVALID',
  'WEBHOOK_URL_PRIVATE',
  'WEBHOOK_ENDPOINT_LIMIT',
  'WEBHOOK_ENDPOINT_NOT_FOUND',
  'REPLY_NOT_FOUND',
  'API_KEY_NOT_FOUND',
  // A NUL or broken surrogate anywhere in the request (platform/http/input-guard.ts).
  'TEXT_INVALID_CHARACTERS',
  'FST_ERR_CTP_INVALID_MEDIA_TYPE',
  'FST_ERR_CTP_EMPTY_JSON_BODY',
];

const anything = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.integer(),
  fc.constant(null),
  fc.boolean(),
  fc.constant({}),
  fc.constant([]),
);
const hostile = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom('', ' ', '\u0000', '\ud800', 'a\u202eb', '😀'.repeat(70), 'x'.repeat(2_100)),
);
// IP literals only: a host name would be resolved (no network here) when the URL is checked.
const url = fc.oneof(
  fc.constantFrom(
    'https://8.8.8.8/hooks',
    'https://1.1.1.1:8443/ecoa?x=1',
    'http://8.8.8.8/hooks',
    'https://127.0.0.1/hooks',
    'https://10.0.0.1/',
    'https://[::1]/',
    'https://[::ffff:127.0.0.1]/',
    'https://user:pass@8.8.8.8/',
    'ftp://8.8.8.8/',
    'javascript:alert(1)',
    'https://',
  ),
  hostile,
  anything,
);
const events = fc.oneof(
  fc.uniqueArray(fc.constantFrom(...WEBHOOK_EVENT_TYPES), { minLength: 1 }),
  fc.array(fc.oneof(fc.constantFrom(...WEBHOOK_EVENT_TYPES, 'message.*', ''), hostile), { maxLength: 10 }),
  anything,
);
const scopes = fc.oneof(
  fc.uniqueArray(fc.constantFrom(...API_SCOPES), { minLength: 1 }),
  fc.array(fc.oneof(fc.constantFrom(...API_SCOPES, 'admin', '*'), hostile), { maxLength: 8 }),
  anything,
);
const someId = fc.oneof(fc.uuid(), fc.constantFrom('x', '0', '%00', 'a'.repeat(80)));

type Input = { method: 'POST' | 'PATCH' | 'PUT'; path: (ids: { endpoint: string }) => string; body: unknown };
const PLAUSIBLE_URLS = ['https://8.8.8.8/hooks', 'https://1.1.1.1:8443/ecoa?x=1', 'https://9.9.9.9/a/b'];
const isoDate = fc
  .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString());
/** Each route: bodies a client would plausibly send (weight 2), and hostile ones. */
const route = (plausible: fc.Arbitrary<Input>, hostileBody: fc.Arbitrary<Input>) =>
  fc.oneof({ weight: 2, arbitrary: plausible }, { weight: 1, arbitrary: hostileBody });
const inputs: fc.Arbitrary<Input> = fc.oneof(
  route(
    fc
      .record({
        name: fc.string({ minLength: 1, maxLength: 40 }),
        scopes: fc.uniqueArray(fc.constantFrom(...API_SCOPES), { minLength: 1 }),
      })
      .map((body): Input => ({ method: 'POST', path: () => '/api/v1/api-keys', body })),
    fc
      .record({ name: fc.oneof(hostile, anything), scopes }, { requiredKeys: [] })
      .map((body): Input => ({ method: 'POST', path: () => '/api/v1/api-keys', body })),
  ),
  route(
    fc
      .record(
        {
          url: fc.constantFrom(...PLAUSIBLE_URLS),
          events: fc.uniqueArray(fc.constantFrom(...WEBHOOK_EVENT_TYPES), { minLength: 1 }),
          description: fc.string({ maxLength: 40 }),
        },
        { requiredKeys: ['url', 'events'] },
      )
      .map((body): Input => ({ method: 'POST', path: () => '/api/v1/webhook-endpoints', body })),
    fc
      .record({ url, events, description: fc.oneof(hostile, anything) }, { requiredKeys: [] })
      .map((body): Input => ({ method: 'POST', path: () => '/api/v1/webhook-endpoints', body })),
  ),
  route(
    fc
      .record(
        {
          url: fc.constantFrom(...PLAUSIBLE_URLS),
          events: fc.uniqueArray(fc.constantFrom(...WEBHOOK_EVENT_TYPES), { minLength: 1 }),
          description: fc.string({ maxLength: 40 }),
          enabled: fc.boolean(),
        },
        { requiredKeys: [] },
      )
      .map((body): Input => ({ method: 'PATCH', path: (ids) => `/api/v1/webhook-endpoints/${ids.endpoint}`, body })),
    fc
      .tuple(
        fc.record(
          { url, events, description: hostile, enabled: fc.oneof(fc.boolean(), anything) },
          { requiredKeys: [] },
        ),
        fc.option(someId, { nil: undefined }),
      )
      .map(
        ([body, id]): Input => ({
          method: 'PATCH',
          path: (ids) => `/api/v1/webhook-endpoints/${id ?? ids.endpoint}`,
          body,
        }),
      ),
  ),
  route(
    fc
      .record({ since: isoDate })
      .map(
        (body): Input => ({ method: 'POST', path: (ids) => `/api/v1/webhook-endpoints/${ids.endpoint}/replay`, body }),
      ),
    fc
      .record({ since: fc.oneof(hostile, anything) })
      .map(
        (body): Input => ({ method: 'POST', path: (ids) => `/api/v1/webhook-endpoints/${ids.endpoint}/replay`, body }),
      ),
  ),
  route(
    fc
      .record({
        thresholds: fc.dictionary(
          fc.constantFrom(...CREDIT_TYPES),
          fc.oneof(fc.integer({ min: 0, max: 1_000_000 }), fc.constant(null)),
          { maxKeys: 4 },
        ),
      })
      .map((body): Input => ({ method: 'PUT', path: () => '/api/v1/balance-alerts', body })),
    fc
      .record({
        thresholds: fc.oneof(
          fc.dictionary(
            fc.constantFrom(...CREDIT_TYPES, 'GOLD', ''),
            fc.oneof(fc.integer({ min: -5, max: 2_000_000_000 }), fc.constant(null), anything),
            { maxKeys: 4 },
          ),
          anything,
        ),
      })
      .map((body): Input => ({ method: 'PUT', path: () => '/api/v1/balance-alerts', body })),
  ),
  fc
    .tuple(someId, fc.record({ handled: fc.oneof(fc.boolean(), anything) }))
    .map(([id, body]): Input => ({ method: 'PATCH', path: () => `/api/v1/replies/${id}`, body })),
  fc
    .tuple(someId, fc.record({ text: fc.oneof(hostile, anything) }))
    .map(([id, body]): Input => ({ method: 'POST', path: () => `/api/v1/replies/${id}/answer`, body })),
);

/**
 * The developers' JSON bodies other than sending (keys, webhook endpoints, replays, balance
 * alerts, replies), hostile: each accepted or refused with its code; what was accepted is what
 * the API then shows (an endpoint's URL an https one of those it could check, a key's scopes known).
 */
describe(`fuzzing the developers' API bodies (${dbKind})`, () => {
  let server: RunningServer;
  let token: string;
  let endpoint: string;

  beforeAll(async () => {
    server = await createTestServer({ isolated: true });
    token = (await signUpAndSignIn(server)).token;
    const created = await server.app.inject({
      method: 'POST',
      url: '/api/v1/webhook-endpoints',
      headers: bearer(token),
      payload: { url: 'https://8.8.8.8/ecoa', events: ['message.status'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    endpoint = created.json().id;
  });
  afterAll(async () => {
    await server?.close();
  });

  async function feed(input: Input): Promise<FuzzOutcome> {
    const res = await server.app.inject({
      method: input.method,
      url: input.path({ endpoint }),
      payload: input.body as object,
      headers: bearer(token),
    });
    if (res.statusCode >= 200 && res.statusCode < 300) return { accepted: true };
    const code = (res.json() as { code?: string }).code ?? 'NO_CODE';
    return { refused: res.statusCode >= 500 ? `HTTP_${res.statusCode}_${code}` : code };
  }

  it('every body is accepted or refused with its code, never a 500; what was accepted reads back valid', async () => {
    const result = await fuzz({ name: "developers' API", inputs, feed, codes: CODES }, BUDGET);
    expect(result.runs).toBeGreaterThan(10);
    const endpoints = (
      await server.app.inject({ method: 'GET', url: '/api/v1/webhook-endpoints', headers: bearer(token) })
    ).json() as { items?: { url: string; events: string[] }[] } | { url: string; events: string[] }[];
    const list = Array.isArray(endpoints) ? endpoints : (endpoints.items ?? []);
    expect(list.length).toBeGreaterThan(0);
    for (const e of list) {
      const parsed = new URL(e.url);
      expect(['https:', 'http:']).toContain(parsed.protocol);
      expect(parsed.username + parsed.password).toBe('');
      expect(e.events.length).toBeGreaterThan(0);
      for (const type of e.events) expect(WEBHOOK_EVENT_TYPES).toContain(type);
    }
    const keys = (await server.app.inject({ method: 'GET', url: '/api/v1/api-keys', headers: bearer(token) })).json() as
      | { scopes: string[] }[]
      | { items: { scopes: string[] }[] };
    for (const k of Array.isArray(keys) ? keys : keys.items)
      for (const scope of k.scopes) expect(API_SCOPES).toContain(scope);
  });
});
