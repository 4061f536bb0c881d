import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, makeAdmin, signUpAndSignIn } from '../../../test/factories.test-support.ts';
import { createTestServer, dbKind } from '../../../test/server.test-support.ts';
import type { RunningServer } from '../../server.ts';

/**
 * Periods asked of the stats and report endpoints: a bucketed series costs one row per bucket,
 * so its length is bounded per bucket (the screen asks at most 90 days, by day or hour); dates
 * that are reversed or outside what a timestamp holds are a clear 400, never a 500 or a heap.
 */
describe(`stats periods (${dbKind})`, () => {
  let server: RunningServer;
  let token: string;
  let adminToken: string;
  let linkId: string;

  beforeAll(async () => {
    server = await createTestServer();
    const user = await signUpAndSignIn(server);
    token = user.token;
    const admin = await signUpAndSignIn(server);
    await makeAdmin(server, admin.user.id);
    adminToken = admin.token;
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/v1/rotating-links',
      headers: bearer(token),
      payload: {
        name: 'Período',
        slug: `periodo-${user.user.id.slice(0, 8)}`,
        targets: [{ kind: 'url', url: 'https://a.example.com' }],
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    linkId = res.json().id;
  });
  afterAll(async () => {
    await server?.close();
  });

  const stats = (query: string) =>
    server.app.inject({
      method: 'GET',
      url: `/api/v1/rotating-links/${linkId}/stats?${query}`,
      headers: bearer(token),
    });
  const iso = (s: string) => encodeURIComponent(s);

  it('refuses a period longer than its bucket allows, with the limit, before building any bucket', async () => {
    for (const [query, maxDays] of [
      [`bucket=hour&from=${iso('1900-01-01T00:00:00Z')}&to=${iso('2100-01-01T00:00:00Z')}`, 92],
      [`bucket=day&from=${iso('0001-01-01T00:00:00Z')}&to=${iso('9999-12-31T00:00:00Z')}`, 732],
      [`bucket=hour&from=${iso('0001-01-01T00:00:00Z')}`, 92],
      [`bucket=hour&from=${iso('2026-01-01T00:00:00Z')}&to=${iso('2026-04-03T00:00:01Z')}`, 92],
    ] as const) {
      const res = await stats(query);
      expect(res.statusCode, `${query}: ${res.body.slice(0, 200)}`).toBe(400);
      expect(res.json()).toMatchObject({ code: 'PERIOD_TOO_LONG', details: { maxDays } });
    }
  });

  it('answers every period the screen asks (7, 30 and 90 days, by day and by hour), each bucket once', async () => {
    const to = new Date('2026-06-01T12:30:00Z');
    for (const days of [7, 30, 90])
      for (const bucket of ['day', 'hour'] as const) {
        const from = new Date(to.getTime() - days * 86_400_000);
        const res = await stats(`bucket=${bucket}&from=${iso(from.toISOString())}&to=${iso(to.toISOString())}`);
        expect(res.statusCode, res.body).toBe(200);
        const buckets = res.json().byDay.length;
        // A period cut mid-day or mid-hour starts and ends in a partial bucket.
        expect(buckets).toBe(bucket === 'day' ? days + 1 : days * 24 + 1);
      }
    // Two years by day is the longest daily series.
    const twoYears = await stats(`bucket=day&from=${iso('2024-06-01T00:00:00Z')}&to=${iso('2026-06-01T00:00:00Z')}`);
    expect(twoYears.statusCode, twoYears.body).toBe(200);
  });

  it('refuses reversed, empty and unrepresentable periods with a clear 400', async () => {
    for (const query of [
      `from=${iso('2026-06-02T00:00:00Z')}&to=${iso('2026-06-01T00:00:00Z')}`,
      `from=${iso('2026-06-01T00:00:00Z')}&to=${iso('2026-06-01T00:00:00Z')}`,
      // An offset pushes the instant past the year 9999.
      `from=${iso('9999-12-30T00:00:00Z')}&to=${iso('9999-12-31T23:00:00-05:00')}`,
    ]) {
      const res = await stats(query);
      expect(res.statusCode, `${query}: ${res.body.slice(0, 200)}`).toBe(400);
      expect(res.json().code).toBe('PERIOD_INVALID');
    }
    // A date that does not exist is refused by the schema.
    const feb30 = await stats(`from=${iso('2026-02-30T00:00:00Z')}`);
    expect(feb30.statusCode).toBe(400);
    expect(feb30.json().code).toBe('VALIDATION_FAILED');
  });

  it("the administrators' enrichments by period: reversed or unrepresentable periods are a 400, any real one lists", async () => {
    const list = (query: string) =>
      server.app.inject({ method: 'GET', url: `/api/v1/admin/enrichments?${query}`, headers: bearer(adminToken) });
    const wide = await list(`from=${iso('0001-01-01T00:00:00Z')}&to=${iso('9999-12-31T00:00:00Z')}`);
    expect(wide.statusCode, wide.body).toBe(200);
    for (const query of [
      `from=${iso('2026-06-02T00:00:00-03:00')}&to=${iso('2026-06-01T23:59:59.999-03:00')}`,
      `to=${iso('9999-12-31T23:59:59.999-03:00')}`,
    ]) {
      const res = await list(query);
      expect(res.statusCode, `${query}: ${res.body.slice(0, 200)}`).toBe(400);
      expect(res.json().code).toBe('PERIOD_INVALID');
    }
  });
});
