/**
 * A million recipients (issue 24, goal 2): one SMS campaign of SCALE_BENCH_N recipients
 * (1,000,000) run by Ecoa as deployed — the compiled server (`scripts/serve.sh`, what `npm start`
 * runs) plus `npm run worker` processes — against the simulated SMSC in a process of its own
 * (no pace, immediate receipts). On PostgreSQL once per process count in SCALE_BENCH_PROCESSES
 * (1,2,3: the server alone, then with one and two workers), each on an emptied `messages`; on the
 * embedded default the server alone on its own PGlite files. Per run: the start (snapshot +
 * reservation, the `start` request), end-to-end time and rate until every receipt is recorded,
 * each process's peak RSS (and the whole tree's), the SMSC's count of messages and duplicates,
 * and the campaign's credits. Goals: start ≤ 10 s, 0 duplicates, every receipt, credits exact,
 * RSS ≤ 400 MB per process on PostgreSQL and ≤ 500 MB for the `npm start` tree on PGlite.
 *
 *   npm run bench -- scale                       (SCALE_BENCH_N=100000 for a quicker run)
 */
import { execFileSync, spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { uniqueEmail } from '../test/factories.test-support.ts';
import { killed } from '../test/processes.test-support.ts';
import { runScaleCampaign, type SpawnEcoa } from '../test/scale-campaign.test-support.ts';
import { tempDir } from '../test/server.test-support.ts';
import type { BenchContext, BenchFigures } from './run.ts';
import { SMPP_BENCH_CREDENTIALS, startSmscProcess } from './smpp.bench.ts';

const N = Number(process.env.SCALE_BENCH_N ?? 1_000_000);
const PROCESSES = (process.env.SCALE_BENCH_PROCESSES ?? '1,2,3').split(',').map(Number);
const WINDOW = 50;
const root = path.resolve(import.meta.dirname, '../../..');

/** The compiled entry as `npm start` / `npm run worker` run it (`scripts/serve.sh`), with `env` on top of ours. */
const spawnCompiled: SpawnEcoa = (entry, env) =>
  spawn('sh', ['scripts/serve.sh', `${entry}.mjs`], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });

export async function run({ db, kind, url }: BenchContext): Promise<BenchFigures> {
  execFileSync(process.execPath, ['scripts/build-server.mjs', '--if-needed'], { cwd: root, stdio: 'inherit' });
  const smsc = await startSmscProcess({ httpPort: 0 });
  const counters = async () =>
    (await (await fetch(`http://127.0.0.1:${smsc.httpPort}/__simulator/counters?totals=1`)).json()) as {
      messages: number;
      duplicates: number;
    };
  const { systemId, password } = SMPP_BENCH_CREDENTIALS;
  const figures: BenchFigures = { recipients: N, machine: `${os.cpus().length} cores` };
  try {
    const counts = kind === 'postgres' ? PROCESSES : [1];
    for (const processes of counts) {
      if (kind === 'postgres')
        await db.executeSql('truncate messages, message_events, provider_message_ids, early_receipts cascade');
      await fetch(`http://127.0.0.1:${smsc.httpPort}/__simulator/reset`, { method: 'POST' });
      const env: Record<string, string> = {
        DATA_DIR: tempDir(),
        ADMIN_EMAIL: uniqueEmail('admin'),
        SMPP_URL: `smpp://${systemId}:${password}@127.0.0.1:${smsc.port}?tps=100000&window=${WINDOW}`,
        ...(kind === 'postgres' && url ? { DATABASE_URL: url } : {}),
      };
      const { figures: run, problems } = await runScaleCampaign(spawnCompiled, env, { n: N, processes });
      const smscCounts = await counters();
      for (const [k, v] of Object.entries(run)) figures[`p${processes}_${k}`] = v;
      figures[`p${processes}_smscMessages`] = smscCounts.messages;
      figures[`p${processes}_smscDuplicates`] = smscCounts.duplicates;
      if (problems.length > 0) figures[`p${processes}_problems`] = problems.join('; ');
      console.log(`scale (${kind}, ${processes} process(es)):`, run, smscCounts);
    }
    figures.loadAverageAtEnd = Number(os.loadavg()[0]!.toFixed(1));
    return figures;
  } finally {
    await killed(smsc.child, 'SIGTERM');
  }
}
