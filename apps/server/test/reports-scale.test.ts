import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/server.ts';
import { bearer, signUpAndSignIn } from './factories.test-support.ts';
import { moveRunningCampaign, seedReportsCampaigns } from './reports-seed.test-support.ts';
import { createTestServer, dbKind } from './server.test-support.ts';

/**
 * Issue 24, goal 4, at CI's size: the screens that poll (the campaigns list, a running
 * campaign's detail and timeline, the home page) never read `messages`, so what a poll costs
 * does not grow with the table; and what they show equals a recount. `bench/reports.bench.ts`
 * times the same screens over 10,000,000 rows. PostgreSQL only: the proof is its per-table
 * statistics (`pg_stat_user_tables`), which count every scan of `messages` whoever runs it.
 */
describe.skipIf(dbKind !== 'postgres')('reports that do not read messages (PostgreSQL)', () => {
  let server: RunningServer;
  let token: string;
  let seeded: { ids: string[]; running: string };
  const sql = async <T>(text: string, values: unknown[] = []) => (await server.db.executeSql(text, values)).rows as T[];

  beforeAll(async () => {
    // No job workers: nothing but the polls below may read the table.
    server = await createTestServer({ isolated: true, work: false });
    const signedIn = await signUpAndSignIn(server);
    token = signedIn.token;
    seeded = await seedReportsCampaigns(sql, signedIn.user.id, { campaigns: 5, perCampaign: 40_000 });
    await moveRunningCampaign(sql, seeded.running);
  }, 180_000);
  afterAll(async () => {
    await server?.close();
  });

  /** Scans of `messages` (sequential and by index) so far, once every backend has reported its own. */
  async function scansOfMessages(): Promise<number> {
    // A backend reports its table statistics when it goes idle, at most once a second.
    await new Promise((r) => setTimeout(r, 1_500));
    await sql('select pg_stat_clear_snapshot()');
    const [row] = await sql<{ n: string }>(
      `select coalesce(seq_scan, 0) + coalesce(idx_scan, 0) as n from pg_stat_user_tables where relname = 'messages'`,
    );
    return Number(row?.n);
  }

  const get = async (url: string) => {
    const res = await server.app.inject({ method: 'GET', url, headers: bearer(token) });
    expect(res.statusCode, url).toBe(200);
    return res.json();
  };

  it('polls the list, the running campaign, its timeline and the dashboard without one scan of messages', async () => {
    const before = await scansOfMessages();
    for (let i = 0; i < 5; i++) {
      await get('/api/v1/campaigns?page=1&pageSize=20');
      await get(`/api/v1/campaigns/${seeded.running}`);
      await get(`/api/v1/campaigns/${seeded.running}/timeline`);
      await get('/api/v1/dashboard/summary');
    }
    expect(await scansOfMessages()).toBe(before);

    // The check itself reads the table: the statistics do see a scan.
    await sql('select count(*) from messages where campaign_id = $1', [seeded.running]);
    expect(await scansOfMessages()).toBeGreaterThan(before);
  });

  it('shows what a recount says, while the running campaign moves', async () => {
    await moveRunningCampaign(sql, seeded.running);
    const counted = await sql<{ id: string; done: number; sent: number; delivered: number; failed: number }>(
      `select campaign_id as id,
              (count(*) filter (where status not in ('queued', 'submitting')))::int as done,
              (count(*) filter (where submitted_at is not null))::int as sent,
              (count(*) filter (where status = 'delivered'))::int as delivered,
              (count(*) filter (where status in ('failed', 'expired')))::int as failed
       from messages group by campaign_id`,
    );
    const list = await get('/api/v1/campaigns?page=1&pageSize=20');
    expect(list.total).toBe(5);
    for (const c of counted) {
      const item = list.items.find((x: { id: string }) => x.id === c.id);
      expect(item).toMatchObject({ done: c.done, sent: c.sent, delivered: c.delivered, failed: c.failed });
    }
    const running = counted.find((c) => c.id === seeded.running)!;
    const detail = await get(`/api/v1/campaigns/${seeded.running}`);
    expect(detail.counts.delivered).toBe(running.delivered);
    expect(detail.counts.queued).toBe(40_000 - running.done);
    const home = await get('/api/v1/dashboard/summary');
    expect(home.totals.delivered).toBe(counted.reduce((n, c) => n + c.delivered, 0));
    expect(home.totals.sent).toBe(counted.reduce((n, c) => n + c.sent, 0));
  });
});
