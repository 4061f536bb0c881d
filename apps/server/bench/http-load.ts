/**
 * A load generator as its own process (so its CPU does not count against the server measured):
 * `concurrency` keep-alive clients request `url` in a loop for `seconds`, each from its own
 * X-Forwarded-For address (the hop limits clicks per IP), and it prints one JSON line:
 * requests per second, the answers' status counts and latency percentiles in milliseconds.
 *
 *   node --import tsx apps/server/bench/http-load.ts '{"url":"http://127.0.0.1:3000/l/x","concurrency":100,"seconds":5}'
 */
import http from 'node:http';

const { url, concurrency, seconds, headers } = JSON.parse(process.argv[2] ?? '{}') as {
  url: string;
  concurrency: number;
  seconds: number;
  /** Sent with every request (an Authorization header, say). */
  headers?: Record<string, string>;
};
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });

function get(headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
  });
}
const latencies: number[] = [];
const statuses: Record<number, number> = {};
let stopAt = 0;
/** Every request, the warm-up's too (the hop bench checks each became a stored click). */
let total = 0;

async function client(id: number): Promise<void> {
  for (let i = 0; performance.now() < stopAt; i++) {
    const started = performance.now();
    const status = await get({
      ...headers,
      'user-agent': 'Mozilla/5.0 (Linux; Android 14) Mobile',
      'x-forwarded-for': `10.9.${id}.${i % 250}`,
    });
    total++;
    latencies.push(performance.now() - started);
    statuses[status] = (statuses[status] ?? 0) + 1;
  }
}

// Warm-up (connections, JIT), then the measured run.
stopAt = performance.now() + 1000;
await Promise.all(Array.from({ length: concurrency }, (_, i) => client(i)));
latencies.length = 0;
for (const k of Object.keys(statuses)) delete statuses[Number(k)];
const started = performance.now();
stopAt = started + seconds * 1000;
await Promise.all(Array.from({ length: concurrency }, (_, i) => client(i)));
const elapsed = (performance.now() - started) / 1000;
latencies.sort((a, b) => a - b);
const at = (q: number) =>
  Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]! * 10) / 10;
process.stdout.write(
  `${JSON.stringify({ requestsPerSecond: Math.round(latencies.length / elapsed), total, statuses, p50Ms: at(0.5), p99Ms: at(0.99) })}\n`,
);
agent.destroy();
