/**
 * Webhook deliveries to a local receiver (node:http on loopback): events published in bursts
 * through `publish` (one outbox row each), the delivery loop running as in the server; figures:
 * deliveries per second, and the delay from the event to the receiver's answer (p50/p99).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { insertTestUser } from '../src/modules/ledger/ledger.test-support.ts';
import { createWebhooksModule } from '../src/modules/webhooks/index.ts';
import { systemClock } from '../src/platform/clock/clock.ts';
import { createLogger } from '../src/platform/logger.ts';
import type { BenchContext, BenchFigures } from './run.ts';

const EVENTS = 2000;

export async function run(ctx: BenchContext): Promise<BenchFigures> {
  const delays: number[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { sentAt: number } };
      delays.push(Date.now() - body.data.sentAt);
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  const logger = createLogger('silent');
  const webhooks = createWebhooksModule({
    db: ctx.db,
    config: { allowPrivateOutbound: true },
    clock: systemClock,
    logger,
    mailer: { send: async () => {} },
  });
  const user = await insertTestUser(ctx.db.db);
  await webhooks.service.create(user.id, { url, events: ['message.status'] });
  webhooks.deliverer.start();
  const started = Date.now();
  try {
    for (let i = 0; i < EVENTS; i++) {
      // The bench's own field rides in `data` so the receiver can time it.
      await webhooks.publish(user.id, 'message.status', { sentAt: Date.now() } as never);
    }
    while (delays.length < EVENTS) await new Promise((resolve) => setTimeout(resolve, 20));
  } finally {
    await webhooks.deliverer.stop();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  const seconds = (Date.now() - started) / 1000;
  const sorted = [...delays].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return {
    events: EVENTS,
    deliveriesPerSecond: Math.round(EVENTS / seconds),
    delayP50Ms: at(0.5),
    delayP99Ms: at(0.99),
    perEndpointConcurrency: 4,
  };
}
