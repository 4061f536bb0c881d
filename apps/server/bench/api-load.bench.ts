/**
 * The API under load (issue 24, goal 5): API_LOAD_CLIENTS (200) keep-alive clients, in a process
 * of their own, for API_LOAD_SECONDS (60) on each of `/api/me`, the campaigns list (an account
 * with 20 campaigns) and a campaign's recipients page (10,000 recipients, the first page of 50 by
 * phone): p50/p99, requests per second, errors, and the CPU per request of the server's process
 * and, on PostgreSQL, of the database backends serving it (/proc). Goal: p99 ≤ 100 ms on
 * PostgreSQL, no errors. Beside each, in the same run, a bare Fastify route running the route's
 * main statement on the same pool: the floor this machine sets.
 *
 *   npm run bench -- api-load
 *   API_LOAD_ONLY=campaigns,recipients npm run bench -- api-load --db=postgres   # some routes
 */
import os from 'node:os';
import Fastify from 'fastify';
import { bearer, signUpAndSignIn } from '../test/factories.test-support.ts';
import { seedReportsCampaigns } from '../test/reports-seed.test-support.ts';
import { freePort } from '../test/server.test-support.ts';
import { startBenchServer } from './bench-server.ts';
import { databaseCpu } from './database-cpu.ts';
import { httpLoad } from './load.ts';
import type { BenchContext, BenchFigures } from './run.ts';

const CLIENTS = Number(process.env.API_LOAD_CLIENTS ?? 200);
const SECONDS = Number(process.env.API_LOAD_SECONDS ?? 60);
const ms = (t: number) => Math.round(t * 100) / 100;

export const poolSize = 20;

export async function run({ db, kind }: BenchContext): Promise<BenchFigures> {
  const port = await freePort();
  const server = await startBenchServer(db, undefined, { port, work: false });
  const sql = async <T>(text: string, values: unknown[] = []) => (await db.executeSql(text, values)).rows as T[];

  const bare = Fastify();
  bare.get<{ Params: { id: string } }>('/bare/recipients/:id', async (request) =>
    sql(`select id, to_phone, status from messages where campaign_id = $1 order by to_phone collate "C" limit 50`, [
      request.params.id,
    ]),
  );
  bare.get('/bare/campaigns', async () => sql(`select * from campaigns order by created_at desc, id desc limit 20`));
  const barePort = await freePort();
  await bare.listen({ port: barePort, host: '127.0.0.1' });

  try {
    const { user, token } = await signUpAndSignIn(server);
    const { running } = await seedReportsCampaigns(sql, user.id, { campaigns: 20, perCampaign: 10_000 });
    await sql('analyze');

    const figures: BenchFigures = {
      machine: `${os.cpus().length} cores`,
      clients: CLIENTS,
      seconds: SECONDS,
    };
    const routes = [
      ['me', `http://127.0.0.1:${port}/api/me`],
      ['campaigns', `http://127.0.0.1:${port}/api/v1/campaigns?page=1&pageSize=20`],
      ['recipients', `http://127.0.0.1:${port}/api/v1/campaigns/${running}/messages?page=1&pageSize=50`],
      ['bareCampaigns', `http://127.0.0.1:${barePort}/bare/campaigns`],
      ['bareRecipients', `http://127.0.0.1:${barePort}/bare/recipients/${running}`],
    ] as const;
    const only = process.env.API_LOAD_ONLY?.split(',');
    for (const [name, url] of routes.filter(([name]) => !only || only.includes(name))) {
      const cpu = process.cpuUsage();
      const dbCpu = kind === 'postgres' ? databaseCpu(db) : undefined;
      const load = await httpLoad(url, { concurrency: CLIENTS, seconds: SECONDS, headers: bearer(token) });
      const used = process.cpuUsage(cpu);
      const requests = Math.max(1, load.requestsPerSecond * SECONDS);
      figures[`${name}P50Ms`] = load.p50Ms;
      figures[`${name}P99Ms`] = load.p99Ms;
      figures[`${name}RequestsPerSecond`] = load.requestsPerSecond;
      figures[`${name}Errors`] = Object.entries(load.statuses).reduce((n, [s, c]) => n + (s === '200' ? 0 : c), 0);
      figures[`${name}ServerCpuMsPerRequest`] = ms((used.user + used.system) / 1000 / requests);
      if (dbCpu) figures[`${name}DatabaseCpuMsPerRequest`] = ms((await dbCpu.stop()) / requests);
      console.log(name, load);
    }
    figures.loadAverageAtEnd = Number(os.loadavg()[0]!.toFixed(1));
    console.table(figures);
    return figures;
  } finally {
    await bare.close();
    await server.close();
  }
}
