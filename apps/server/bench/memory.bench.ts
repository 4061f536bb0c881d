/**
 * Memory as a user meets it: `npm start` itself (npm, and the compiled server it runs), measured
 * as the whole process tree's resident memory (the sum of VmRSS over npm and its descendants).
 *
 * - idle after a first start (initdb on an empty DATA_DIR) and after a restart on that directory;
 * - PGlite only: the peak while a 1,000,000-row CSV is imported over HTTP (sign-up, upload,
 *   poll until ready), sampled every 50 ms, and what stays after.
 *
 * Goals (issue 14): idle ≤ 300 MB, import peak ≤ 400 MB, on the embedded database. On
 * PostgreSQL the server is measured idle too (the database's memory is its own server's).
 *
 *   npm run bench -- memory             # BENCH_LIST_ROWS=100000 for a quicker run
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../test/server.test-support.ts';
import { generateCsv } from './lists-import.bench.ts';
import type { BenchContext, BenchFigures } from './run.ts';

const ROWS = Number(process.env.BENCH_LIST_ROWS ?? 1_000_000);
/** How long the server sits idle before its memory is read, and how long it is read for. */
const SETTLE_MS = 10_000;
const IDLE_SAMPLE_MS = 5_000;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const mb = (kb: number) => Math.round(kb / 1024);

/**
 * Resident memory (kB) of `pid` and each of its descendants, by command: the sum of their RSS
 * (the goal's measure), and of their PSS, where pages shared between them (node's own code, in
 * npm and in the server) count once.
 */
function treeRss(pid: number): { totalKb: number; pssKb: number; byCommand: Record<string, number> } {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  let totalKb = 0;
  let pssKb = 0;
  const byCommand: Record<string, number> = {};
  const visit = (p: number) => {
    try {
      const status = fs.readFileSync(`/proc/${p}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      const cmd = fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0').slice(0, 3).join(' ').trim();
      totalKb += kb;
      pssKb += Number(/^Pss:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${p}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
      byCommand[cmd] = (byCommand[cmd] ?? 0) + kb;
    } catch {
      return;
    }
    for (const child of children.get(p) ?? []) visit(child);
  };
  visit(pid);
  return { totalKb, pssKb, byCommand };
}

type Started = { child: ChildProcess; base: string; startSeconds: number };

/** `npm start` in its own process group, as a user runs it; resolves when /api/health answers. */
async function npmStart(env: Record<string, string>): Promise<Started> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const child = spawn('npm', ['start'], {
    cwd: root,
    env: { ...inherited, LOG_LEVEL: 'warn', PORT: String(port), PUBLIC_URL: base, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stderr!.on('data', (d) => {
    stderr = (stderr + d).slice(-4000);
  });
  const started = performance.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited ${child.exitCode}: ${stderr}`);
    if (performance.now() - started > 180_000) throw new Error(`npm start not healthy after 180 s: ${stderr}`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, base, startSeconds: (performance.now() - started) / 1000 };
}

/** `npm start`, then `use` it, then stop the whole tree whatever happened. */
async function withNpmStart(env: Record<string, string>, use: (started: Started) => Promise<void>): Promise<void> {
  const started = await npmStart(env);
  try {
    await use(started);
  } finally {
    await stop(started.child);
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid!, 'SIGTERM');
  const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 20_000);
  await exited;
  clearTimeout(timer);
}

/** The highest tree RSS over `ms`, read every 250 ms once the server has settled. */
async function idleRss(
  child: ChildProcess,
): Promise<{ treeMb: number; treePssMb: number; serverMb: number; npmMb: number }> {
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  let peak = treeRss(child.pid!);
  for (const until = performance.now() + IDLE_SAMPLE_MS; performance.now() < until; ) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = treeRss(child.pid!);
    if (now.totalKb > peak.totalKb) peak = now;
  }
  const npmKb = Object.entries(peak.byCommand)
    .filter(([cmd]) => cmd.startsWith('npm') || cmd.startsWith('sh '))
    .reduce((sum, [, kb]) => sum + kb, 0);
  return { treeMb: mb(peak.totalKb), treePssMb: mb(peak.pssKb), serverMb: mb(peak.totalKb - npmKb), npmMb: mb(npmKb) };
}

async function call(base: string, method: string, url: string, body?: unknown, token?: string) {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: {
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${method} ${url} → ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** Signs a new company up and in over HTTP, reading the code from DATA_DIR's outbox. */
async function signUp(base: string, dataDir: string): Promise<string> {
  const email = `bench-${Date.now()}@ecoa.test`;
  await call(base, 'POST', '/api/user', {
    email,
    name: 'Bench',
    fantasyName: 'Bench',
    fullName: 'Maria da Silva',
    cnpj: '11222333000181',
    mobilePhone: '11987654321',
    terms: true,
    priceTable: { smsShort: 0, smsFlash: 0, whatsapp: 0, ura: 0, enriched: 0, rcs: 0, uraIntegration: 0 },
  });
  await call(base, 'POST', '/api/auth/request-code', { email });
  const outbox = path.join(dataDir, 'outbox');
  const mail = fs.readdirSync(outbox).sort().at(-1)!;
  const code = /^(\d{6})\r?$/m.exec(fs.readFileSync(path.join(outbox, mail), 'utf8'))?.[1];
  const login = await call(base, 'POST', '/api/auth/login?remainLogin=false', { email, code, remainLogin: false });
  return login.accessToken as string;
}

async function importPeak(started: Started, dataDir: string, file: string): Promise<BenchFigures> {
  const token = await signUp(started.base, dataDir);
  const before = treeRss(started.child.pid!).totalKb;
  let peakKb = before;
  let peakPssKb = 0;
  const sampler = setInterval(() => {
    const now = treeRss(started.child.pid!);
    peakKb = Math.max(peakKb, now.totalKb);
    peakPssKb = Math.max(peakPssKb, now.pssKb);
  }, 50);
  const form = new FormData();
  form.set('name', `Bench ${ROWS}`);
  form.set('file', await fs.openAsBlob(file), 'bench.csv');
  const t0 = performance.now();
  const res = await fetch(`${started.base}/api/v1/lists`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${token}` },
  });
  if (res.status !== 201) throw new Error(`upload ${res.status}: ${await res.text()}`);
  const { id } = (await res.json()) as { id: string };
  let list: Record<string, unknown>;
  for (;;) {
    list = await call(started.base, 'GET', `/api/v1/lists/${id}`, undefined, token);
    if (list.status !== 'importing') break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  if (list.status !== 'ready') throw new Error(`import ended ${list.status}: ${list.errorCode}`);
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  return {
    importRows: ROWS,
    importSeconds: Number(seconds.toFixed(2)),
    importValid: Number(list.valid),
    treeBeforeImportMb: mb(before),
    importPeakTreeMb: mb(peakKb),
    importPeakTreePssMb: mb(peakPssKb),
    afterImportTreeMb: mb(treeRss(started.child.pid!).totalKb),
  };
}

export async function run(ctx: BenchContext): Promise<BenchFigures> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ecoa-bench-memory-'));
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    ...(ctx.db.connectionString ? { DATABASE_URL: ctx.db.connectionString } : {}),
  };
  const figures: BenchFigures = { db: ctx.kind };
  try {
    await withNpmStart(env, async (first) => {
      const idle = await idleRss(first.child);
      Object.assign(figures, {
        firstStartSeconds: Number(first.startSeconds.toFixed(1)),
        firstStartIdleTreeMb: idle.treeMb,
        firstStartIdleTreePssMb: idle.treePssMb,
      });
    });
    await withNpmStart(env, async (warm) => {
      const idle = await idleRss(warm.child);
      Object.assign(figures, {
        warmStartSeconds: Number(warm.startSeconds.toFixed(1)),
        idleTreeMb: idle.treeMb,
        idleTreePssMb: idle.treePssMb,
        idleServerMb: idle.serverMb,
        idleNpmMb: idle.npmMb,
      });
      if (ctx.kind === 'pglite') {
        const file = path.join(os.tmpdir(), `ecoa-bench-lists-${ROWS}.csv`);
        if (!fs.existsSync(file)) generateCsv(file, ROWS);
        Object.assign(figures, await importPeak(warm, dataDir, file));
      }
    });
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const goalMet =
    Number(figures.idleTreeMb) <= 300 &&
    Number(figures.firstStartIdleTreeMb) <= 300 &&
    (ctx.kind !== 'pglite' || Number(figures.importPeakTreeMb) <= 400);
  return { ...figures, goalIdleMb: 300, goalImportPeakMb: 400, goalMet };
}
