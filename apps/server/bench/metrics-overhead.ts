/**
 * The per-request cost of the metrics hook: the same server twice in one process, without and
 * with METRICS_TOKEN, loaded in turns by bench/http-load.ts (its own process), plus the hook's
 * `record` alone in a tight loop.
 *
 *   node --import tsx apps/server/bench/metrics-overhead.ts
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { loadConfig } from '../src/platform/config/config.ts';
import { createLogger } from '../src/platform/logger.ts';
import { createHttpMetrics } from '../src/platform/metrics/http-metrics.ts';
import { startServer } from '../src/server.ts';

const logger = createLogger('silent');
const TOKEN = 'bench-metrics-token-0123456789';

async function start(port: number, metrics: boolean) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ecoa-metrics-bench-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: String(port),
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
    ...(metrics ? { METRICS_TOKEN: TOKEN } : {}),
  });
  return startServer({ config, logger, listen: true, work: false, webRoot: dataDir });
}

// The hook's own work: two Map lookups and a few increments (50 routes × 3 methods, warm).
const http = createHttpMetrics();
const routes = Array.from({ length: 50 }, (_, i) => `/api/v1/thing${i}/:id`);
const N = 5_000_000;
let t = performance.now();
for (let i = 0; i < N; i++) http.record(i % 3 === 0 ? 'POST' : 'GET', routes[i % 50]!, 200, (i % 1000) / 1000);
const nsPerRecord = ((performance.now() - t) * 1e6) / N;
process.stdout.write(`record(): ${nsPerRecord.toFixed(1)} ns per request\n`);

const plain = await start(3301, false);
const measured = await start(3302, true);
// Asynchronous: the servers answer from this process's event loop.
const load = async (port: number, url: string) =>
  JSON.parse(
    (
      await promisify(execFile)(
        process.execPath,
        [
          '--import',
          'tsx',
          path.join(import.meta.dirname, 'http-load.ts'),
          JSON.stringify({ url: `http://127.0.0.1:${port}${url}`, concurrency: 10, seconds: 3 }),
        ],
        { encoding: 'utf8' },
      )
    ).stdout,
  ) as { requestsPerSecond: number; p50Ms: number; p99Ms: number; statuses: Record<string, number> };

for (const url of ['/api/health', `/api/v1/lists/${randomUUID()}`]) {
  const results: Record<string, { rps: number[]; p50: number[] }> = {
    without: { rps: [], p50: [] },
    with: { rps: [], p50: [] },
  };
  for (let round = 0; round < 3; round++) {
    for (const [name, port] of [
      ['without', 3301],
      ['with', 3302],
    ] as const) {
      const r = await load(port, url);
      results[name]!.rps.push(r.requestsPerSecond);
      results[name]!.p50.push(r.p50Ms);
    }
  }
  process.stdout.write(`${url}: ${JSON.stringify(results)}\n`);
}
t = performance.now();
const scrape = await fetch('http://127.0.0.1:3302/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
const body = await scrape.text();
process.stdout.write(`scrape: ${scrape.status}, ${body.length} bytes, ${(performance.now() - t).toFixed(1)} ms\n`);
process.stdout.write(
  `${body
    .split('\n')
    .filter((l) => l.startsWith('ecoa_http_requests_total'))
    .join('\n')}\n`,
);
await plain.close();
await measured.close();
