/**
 * Webhook intake with the status stored: signed WhatsApp status notifications posted to the
 * server's own route (`POST /api/webhooks/whatsapp/events`, Fastify inject: the raw-body scope,
 * the signature, the parse, then the channels core's receipt write — advisory lock, part status,
 * message status, history row — in one transaction), `EVENTS` messages each getting `sent`
 * then `delivered`. In the same run, the bare intake: the same bodies through a WhatsApp
 * adapter whose listener stores nothing, so the ratio says what the database write costs.
 */
import { randomUUID } from 'node:crypto';
import { createChannelsRepository } from '../src/modules/channels/channels.repository.ts';
import { createWhatsAppProvider } from '../src/modules/channels/providers/whatsapp/whatsapp.provider.ts';
import { signWhatsAppBody, statusNotification } from '../src/modules/channels/providers/whatsapp/whatsapp.wire.ts';
import { loadConfig } from '../src/platform/config/config.ts';
import { createLogger } from '../src/platform/logger.ts';
import { startServer } from '../src/server.ts';
import type { BenchContext, BenchFigures } from './run.ts';

const EVENTS = Number(process.env.BENCH_WEBHOOK_MESSAGES ?? 2000);
const PARALLEL = 16;

async function throughput(count: number, parallel: number, task: (i: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) await task(next++);
    }),
  );
  return Math.round(count / ((performance.now() - started) / 1000));
}

export async function run({ db, kind }: BenchContext): Promise<BenchFigures> {
  const config = loadConfig({
    DATA_DIR: `/tmp/ecoa-bench-channels-${process.pid}`,
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
  });
  const server = await startServer({ config, logger: createLogger('silent'), listen: false, db });
  try {
    const whatsapp = server.providers.simulators.whatsapp!.config;
    const [user] = (
      await db.executeSql(
        "insert into users (email, name, full_name, cnpj, mobile_phone) values ($1, 'Bench', 'Bench', '11222333000181', '11987654321') returning id",
        [`bench-${randomUUID()}@ecoa.test`],
      )
    ).rows as { id: string }[];
    // EVENTS messages already submitted, each with its wamid stored (what a test send leaves).
    const repo = createChannelsRepository(db.db);
    const wamids: string[] = [];
    for (let i = 0; i < EVENTS; i++) {
      const id = await repo.createMessage(
        {
          userId: user!.id,
          channel: 'whatsapp',
          toPhone: `+55119${10_000_000 + i}`,
          parts: 1,
          provider: 'whatsapp',
          content: { kind: 'whatsapp', template: { name: 'bench', language: 'pt_BR', params: [] } },
        },
        new Date(),
      );
      const wamid = `wamid.bench.${randomUUID()}`;
      await repo.recordSubmitted(id, 'whatsapp', [wamid], new Date());
      wamids.push(wamid);
    }
    const body = (i: number, status: 'sent' | 'delivered') => {
      const raw = Buffer.from(
        JSON.stringify(
          statusNotification({
            phoneNumberId: whatsapp.phoneNumberId,
            wamid: wamids[i]!,
            status,
            timestamp: 1_760_000_000 + i,
            recipient: `55119${10_000_000 + i}`,
          }),
        ),
      );
      return { raw, signature: signWhatsAppBody(whatsapp.appSecret, raw) };
    };
    const deliveries = [...wamids.map((_, i) => body(i, 'sent')), ...wamids.map((_, i) => body(i, 'delivered'))];
    const post = async (i: number) => {
      const { raw, signature } = deliveries[i]!;
      const res = await server.app.inject({
        method: 'POST',
        url: '/api/webhooks/whatsapp/events',
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
        payload: raw,
      });
      if (res.statusCode !== 200) throw new Error(`webhook answered ${res.statusCode}: ${res.body}`);
    };
    const storedEventsPerSecond = await throughput(deliveries.length, PARALLEL, post);
    const { rows } = await db.executeSql(
      "select count(*)::int as n from messages where user_id = $1 and status = 'delivered'",
      [user!.id],
    );
    const delivered = (rows[0] as { n: number }).n;

    // The bare intake: the same route code, a listener that stores nothing.
    const bare = createWhatsAppProvider({ config: whatsapp, mode: 'simulator' });
    bare.onEvent(async () => {});
    const route = bare.webhooks.find((w) => w.method === 'POST')!;
    const bareEventsPerSecond = await throughput(deliveries.length, PARALLEL, async (i) => {
      const { raw, signature } = deliveries[i]!;
      const res = await route.handle(
        { method: 'POST', url: '', headers: { 'x-hub-signature-256': signature }, query: {}, rawBody: raw },
        {},
      );
      if (res.status !== 200) throw new Error(`webhook answered ${res.status}`);
    });
    await bare.close();
    const figures = {
      database: kind,
      messages: EVENTS,
      events: deliveries.length,
      storedEventsPerSecond,
      bareEventsPerSecond,
      storedToBareRatio: Math.round((storedEventsPerSecond / bareEventsPerSecond) * 1000) / 1000,
      delivered,
    };
    if (delivered !== EVENTS) throw new Error(`only ${delivered} of ${EVENTS} messages delivered`);
    return figures;
  } finally {
    await server.close();
  }
}
