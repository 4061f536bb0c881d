/**
 * A big SMS campaign run by Ecoa as separate processes (issue 24, goal 2): the bench
 * (`bench/scale.bench.ts`, a million recipients, the compiled entries) and the CI test
 * (`test/scale-processes.test.ts`, a few thousand, from the sources) share it.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { importList } from '../src/modules/campaigns/campaigns.test-support.ts';
import { bearer, signIn, signUpAndSignIn } from './factories.test-support.ts';
import { ChildExited, killed, waitUntil, waitUntilHealthy } from './processes.test-support.ts';
import { remoteServer } from './remote-server.test-support.ts';
import { freePort } from './server.test-support.ts';

/** Resident memory of a process now, in MB (0 once it is gone). */
export function rssMb(pid: number): number {
  try {
    const line = fs
      .readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmRSS:'));
    return Math.round(Number(line?.split(/\s+/)[1] ?? 0) / 1024);
  } catch {
    return 0;
  }
}

/** How a process of Ecoa is started: the server (`main`) or a worker, with `env` on top of ours. */
export type SpawnEcoa = (entry: 'main' | 'worker', env: Record<string, string>) => ChildProcess;

export type ScaleRun = { figures: Record<string, number | string>; problems: string[] };

/**
 * One SMS campaign of `n` recipients run by `processes` processes of Ecoa (the server and
 * `processes - 1` workers, started by `spawnEcoa` on `env`'s database and carrier), from the sign-up
 * and the list's import over HTTP to every receipt recorded: its figures (start, end to end, rate,
 * each process's peak RSS) and any broken promise about the recipients and the credits.
 */
export async function runScaleCampaign(
  spawnEcoa: SpawnEcoa,
  env: Record<string, string>,
  { n, processes }: { n: number; processes: number },
): Promise<ScaleRun> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = String(env.DATA_DIR);
  const children: ChildProcess[] = [];
  try {
    const server = spawnEcoa('main', { ...env, PORT: String(port), PUBLIC_URL: base });
    children.push(server);
    await waitUntilHealthy(server, base, 180_000);
    for (let i = 1; i < processes; i++) children.push(spawnEcoa('worker', env));

    // The account: signed up over HTTP, credits from an administrator, the list as an import leaves it.
    const remote = remoteServer(base, dataDir);
    const { token, user } = await signUpAndSignIn(remote);
    const admin = await signIn(remote, env.ADMIN_EMAIL!);
    const grant = await remote.app.inject({
      method: 'POST',
      url: `/api/v1/admin/users/${user.id}/adjustments`,
      headers: bearer(admin.token),
      payload: { type: 'SMSSHORT', amount: n, reason: 'bench de escala' },
    });
    if (grant.statusCode >= 300) throw new Error(`credits: ${grant.body}`);
    // The list through the real import (a CSV upload), as a customer would bring it.
    const list = await importList(
      remote,
      token,
      Array.from({ length: n }, (_, i) => ({
        phone: `119${String(i + 1).padStart(8, '0')}`,
        name: `Cliente ${i + 1}`,
      })),
      'Escala',
    );

    const call = async (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) => {
      const res = await remote.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
      if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
      return res.json();
    };
    const created = await call('POST', '/api/v1/campaigns', {
      name: 'Escala',
      channel: 'sms_short',
      listIds: [list],
      content: { text: 'Ecoa: sua fatura vence amanha. Pague pelo app.' },
      window: { days: [0, 1, 2, 3, 4, 5, 6], start: '00:00', end: '24:00' },
    });
    const peaks = new Map<number, number>();
    const sampler = setInterval(() => {
      for (const child of children) peaks.set(child.pid!, Math.max(peaks.get(child.pid!) ?? 0, rssMb(child.pid!)));
    }, 500);
    const t0 = performance.now();
    await call('POST', `/api/v1/campaigns/${created.id}/start`, { mode: 'now' });
    const startMs = Math.round(performance.now() - t0);
    let campaign:
      | { status: string; total: number; counts: Record<string, number>; credits: Record<string, number> }
      | undefined;
    await waitUntil(
      'every receipt',
      async () => {
        campaign = await call('GET', `/api/v1/campaigns/${created.id}`);
        if (['FAILED', 'CANCELED', 'PAUSED'].includes(campaign!.status))
          throw new ChildExited(`the campaign stopped: ${JSON.stringify(campaign)}`);
        // Every recipient the list gave, and each one's receipt recorded.
        return campaign!.status === 'COMPLETED' && campaign!.counts.delivered === campaign!.total;
      },
      60 * 60_000,
    );
    const seconds = (performance.now() - t0) / 1000;
    clearInterval(sampler);
    const rss = children.map((c) => peaks.get(c.pid!) ?? 0);
    const problems: string[] = [];
    if (campaign!.total !== n) problems.push(`the list gave ${campaign!.total} recipients of ${n}`);
    if (campaign!.credits.used !== n || campaign!.credits.reserved !== n || campaign!.credits.released !== 0)
      problems.push(`credits ${JSON.stringify(campaign!.credits)}`);
    return {
      figures: {
        startMs,
        endToEndSeconds: Math.round(seconds * 10) / 10,
        msgsPerSecond: Math.round(n / seconds),
        delivered: campaign!.counts.delivered ?? 0,
        creditsUsed: campaign!.credits.used ?? 0,
        rssPeakServerMb: rss[0]!,
        rssPeakWorkersMb: rss.slice(1).join('/') || '-',
        rssPeakTreeMb: rss.reduce((a, b) => a + b, 0),
      },
      problems,
    };
  } finally {
    for (const child of children) await killed(child, 'SIGTERM');
  }
}
