/**
 * The WhatsApp adapter's own costs, no database involved (the same figures on both runs):
 * - `sendsPerSecond`: template sends through the real adapter to its simulator over loopback
 *   HTTP (no throughput limit on either side, no latency, 64 sends in flight), each answer
 *   parsed for its wamid;
 * - `webhookHandlerEventsPerSecond`: signed status notifications straight into the webhook
 *   handler (HMAC-SHA256 checked over the raw body, JSON parsed, the StatusEvent emitted);
 * - `webhookHttpEventsPerSecond`: the same through a real HTTP server (Fastify on loopback,
 *   raw body), 32 deliveries in flight, as Meta would post them.
 * "Status stored" (the core's write per event) comes with the channels core.
 */
import { randomUUID } from 'node:crypto';
import type { OutboundMessage } from '../src/modules/channels/provider.ts';
import { serveWebhooks } from '../src/modules/channels/providers/http-kit/webhook-server.test-support.ts';
import { createWhatsAppProvider } from '../src/modules/channels/providers/whatsapp/whatsapp.provider.ts';
import { startWhatsAppSimulator } from '../src/modules/channels/providers/whatsapp/whatsapp.simulator.ts';
import { WHATSAPP_WEBHOOK_PATH } from '../src/modules/channels/providers/whatsapp/whatsapp.webhook.ts';
import { signWhatsAppBody, statusNotification } from '../src/modules/channels/providers/whatsapp/whatsapp.wire.ts';
import type { BenchContext, BenchFigures } from './run.ts';

const SENDS = Number(process.env.BENCH_WHATSAPP_SENDS ?? 4000);
const EVENTS = Number(process.env.BENCH_WHATSAPP_EVENTS ?? 20_000);

/** Runs `count` tasks with at most `parallel` in flight; returns tasks per second. */
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

export async function run(_ctx: BenchContext): Promise<BenchFigures> {
  const simulator = await startWhatsAppSimulator({ latencyMs: 0, throughputPerSecond: null, callbackUrl: null });
  const provider = createWhatsAppProvider({ config: simulator.config, mode: 'simulator', messagesPerSecond: 1e9 });
  const webhooks = await serveWebhooks('whatsapp', provider.webhooks);
  let emitted = 0;
  provider.onEvent(async () => {
    emitted++;
  });
  try {
    const message = (i: number): OutboundMessage => ({
      id: randomUUID(),
      channel: 'whatsapp',
      to: `+55119${String(10_000_000 + i)}`,
      content: {
        kind: 'whatsapp',
        template: { name: 'cobranca_aviso', language: 'pt_BR', params: ['Ana', `R$ ${i},00`] },
      },
    });
    await throughput(200, 16, (i) => provider.submit(message(i))); // warm-up: connections, JIT
    simulator.reset();
    const sendsPerSecond = await throughput(SENDS, 64, (i) => provider.submit(message(i)));

    const secret = simulator.config.appSecret;
    const bodies = Array.from({ length: 1000 }, (_, i) => {
      const body = Buffer.from(
        JSON.stringify(
          statusNotification({
            phoneNumberId: simulator.config.phoneNumberId,
            wamid: `wamid.bench${i}`,
            status: (['sent', 'delivered', 'read'] as const)[i % 3]!,
            timestamp: 1_760_000_000 + i,
            recipient: `55119${10_000_000 + i}`,
          }),
        ),
      );
      return { body, signature: signWhatsAppBody(secret, body) };
    });
    const route = provider.webhooks.find((w) => w.method === 'POST')!;
    const handlerEvents = await throughput(EVENTS, 1, async (i) => {
      const { body, signature } = bodies[i % bodies.length]!;
      const res = await route.handle(
        { method: 'POST', url: '', headers: { 'x-hub-signature-256': signature }, query: {}, rawBody: body },
        {},
      );
      if (res.status !== 200) throw new Error(`webhook answered ${res.status}`);
    });
    const url = `${webhooks.baseUrl}${WHATSAPP_WEBHOOK_PATH}`;
    const httpEvents = await throughput(Math.min(EVENTS, 5000), 32, async (i) => {
      const { body, signature } = bodies[i % bodies.length]!;
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
        body,
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`webhook answered ${res.status}`);
    });
    const counters = simulator.counters();
    return {
      sends: SENDS,
      sendsPerSecond,
      sendsAcceptedBySimulator: counters.accepted,
      webhookHandlerEventsPerSecond: handlerEvents,
      webhookHttpEventsPerSecond: httpEvents,
      eventsEmitted: emitted,
    };
  } finally {
    await webhooks.close();
    await provider.close();
    await simulator.close();
  }
}
