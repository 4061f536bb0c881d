/**
 * Reports that do not grow with the table (issue 24, goal 4): `messages` seeded with
 * REPORTS_BENCH_ROWS rows (PostgreSQL 10,000,000, PGlite 1,000,000) across 50 campaigns of one
 * account, one of them RUNNING with its rows moving (queued → sent → delivered, 500 a statement,
 * as a dispatcher and the receipts would); then 20 clients (in a process of their own) poll the
 * campaigns list, the running campaign's detail and the dashboard for REPORTS_BENCH_SECONDS (60):
 * p50/p99 per screen (goal: p99 ≤ 100 ms each), and the CPU the run cost per request (the server's
 * process, and on PostgreSQL the database backends serving it, read from /proc).
 * The same run times, once each, the statements the screens ran before the tallies (counting the
 * campaign's rows by status): what a poll cost then on this table.
 *
 *   npm run bench -- reports
 */
import os from 'node:os';
import { bearer, signUpAndSignIn } from '../test/factories.test-support.ts';
import { moveRunningCampaign, seedReportsCampaigns } from '../test/reports-seed.test-support.ts';
import { freePort } from '../test/server.test-support.ts';
import { startBenchServer } from './bench-server.ts';
import { databaseCpu } from './database-cpu.ts';
import { httpLoad, type Load } from './load.ts';
import type { BenchContext, BenchFigures } from './run.ts';

const CAMPAIGNS = 50;
const SECONDS = Number(process.env.REPORTS_BENCH_SECONDS ?? 60);
const CLIENTS = 20;
const ms = (t: number) => Math.round(t * 10) / 10;

export const poolSize = 24;

export async function run({ db, kind }: BenchContext): Promise<BenchFigures> {
  const rows = Number(process.env.REPORTS_BENCH_ROWS ?? (kind === 'postgres' ? 10_000_000 : 1_000_000));
  const perCampaign = Math.floor(rows / CAMPAIGNS);
  const port = await freePort();
  const server = await startBenchServer(db, undefined, { port, work: false });
  const sql = async <T>(text: string, values: unknown[] = []) => (await db.executeSql(text, values)).rows as T[];
  try {
    const { user, token } = await signUpAndSignIn(server);

    const seedStarted = performance.now();
    const { ids: campaigns, running } = await seedReportsCampaigns(sql, user.id, { campaigns: CAMPAIGNS, perCampaign });
    await sql('analyze');
    const seedSeconds = Math.round((performance.now() - seedStarted) / 100) / 10;
    const [{ total }] = (await sql<{ total: string }>('select count(*) as total from messages')) as [{ total: string }];

    // What a poll cost before the tallies: the same screens' counts, each timed once.
    const timed = async (text: string, values: unknown[]) => {
      const started = performance.now();
      await sql(text, values);
      return ms(performance.now() - started);
    };
    const before = {
      listCountMs: await timed(
        `select c.id, p.* from campaigns c left join lateral (
           select count(*) filter (where m.status not in ('queued', 'submitting')) as done,
                  count(*) filter (where m.submitted_at is not null) as sent,
                  count(*) filter (where m.status = 'delivered') as delivered
           from messages m where m.campaign_id = c.id) p on true
         where c.id = any($1::uuid[])`,
        [`{${campaigns.slice(0, 20).join(',')}}`],
      ),
      detailCountMs: await timed(`select status, count(*) from messages where campaign_id = $1 group by status`, [
        running,
      ]),
      dashboardDaysMs: await timed(
        `select to_char(created_at at time zone 'America/Sao_Paulo', 'YYYY-MM-DD'), channel,
                count(*) filter (where submitted_at is not null), count(*) filter (where status = 'delivered')
         from messages where user_id = $1 and created_at >= now() - interval '30 days' group by 1, 2`,
        [user.id],
      ),
    };

    // The running campaign moves while the screens poll: 500 rows a statement, every 100 ms.
    let moving = true;
    let moved = 0;
    const mover = (async () => {
      while (moving) {
        moved += await moveRunningCampaign(sql, running);
        await new Promise((r) => setTimeout(r, 100));
      }
    })();

    const base = `http://127.0.0.1:${port}`;
    const headers = bearer(token);
    const cpuBefore = process.cpuUsage();
    const dbCpu = kind === 'postgres' ? databaseCpu(db) : undefined;
    const [list, detail, dashboard] = (await Promise.all([
      httpLoad(`${base}/api/v1/campaigns?page=1&pageSize=20`, { concurrency: 7, seconds: SECONDS, headers }),
      httpLoad(`${base}/api/v1/campaigns/${running}`, { concurrency: 7, seconds: SECONDS, headers }),
      httpLoad(`${base}/api/v1/dashboard/summary`, { concurrency: 6, seconds: SECONDS, headers }),
    ])) as [Load, Load, Load];
    const cpu = process.cpuUsage(cpuBefore);
    const dbCpuMs = (await dbCpu?.stop()) ?? 0;
    moving = false;
    await mover;

    const requests = list.total + detail.total + dashboard.total;
    const serverCpuMs = (cpu.user + cpu.system) / 1000;
    const figures: BenchFigures = {
      machine: `${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)} at the end`,
      messages: Number(total),
      campaigns: CAMPAIGNS,
      seedSeconds,
      clients: CLIENTS,
      seconds: SECONDS,
      rowsMovedDuringRun: moved,
      listP50Ms: list.p50Ms,
      listP99Ms: list.p99Ms,
      listRps: list.requestsPerSecond,
      detailP50Ms: detail.p50Ms,
      detailP99Ms: detail.p99Ms,
      detailRps: detail.requestsPerSecond,
      dashboardP50Ms: dashboard.p50Ms,
      dashboardP99Ms: dashboard.p99Ms,
      dashboardRps: dashboard.requestsPerSecond,
      errors: [list, detail, dashboard].reduce(
        (n, l) => n + Object.entries(l.statuses).reduce((m, [s, c]) => m + (s === '200' ? 0 : c), 0),
        0,
      ),
      statuses: JSON.stringify({ list: list.statuses, detail: detail.statuses, dashboard: dashboard.statuses }),
      serverCpuMsPerRequest: ms(serverCpuMs / requests),
      ...(kind === 'postgres' ? { databaseCpuMsPerRequest: ms(dbCpuMs / requests) } : {}),
      beforeListCountMs: before.listCountMs,
      beforeDetailCountMs: before.detailCountMs,
      beforeDashboardDaysMs: before.dashboardDaysMs,
    };
    console.table(figures);
    return figures;
  } finally {
    await server.close();
  }
}
