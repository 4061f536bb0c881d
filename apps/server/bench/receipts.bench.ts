/**
 * Receipts faster than sends (issue 24, goal 3): carriers deliver receipts in bursts, and a burst
 * is stored at ≥ 2× the end-to-end send rate, each acknowledged only once committed.
 *
 * SMPP: a campaign of RECEIPTS_BENCH_N recipients (200,000) sent to the simulated SMSC in its own
 * process (no pace) holding every receipt (`holdReceipts`): the end-to-end send rate is start →
 * every row `sent`. Then the hold is let go, every receipt goes out at once (deliver_sm, a burst),
 * and the storing rate is release → every row `delivered` in the database, with the SMSC's count
 * of deliver_sm_resp (each one is sent only once its receipt is committed: receipt-batcher.ts).
 *
 * WhatsApp: a campaign of the same size sent through the real WhatsApp provider to its in-process
 * simulator (no pace, no latency, its own status callbacks off), rows `sent` with their wamids;
 * then one signed `delivered` status webhook per message posted over HTTP to the server's webhook
 * route (RECEIPTS_BENCH_CONCURRENCY in flight, 32 by default; bodies signed before the clock
 * starts; the rate follows the carrier's concurrency, each webhook waiting for its commit), until every row
 * is `delivered`; every answer must be 200 (sent only once committed).
 *
 * Each storing rate is given as a ratio to the SMPP end-to-end send rate measured in the same run
 * (the goal's baseline), and the WhatsApp one to its own campaign's send rate too. CPU per
 * receipt: this process (Ecoa; PGlite runs inside it, and so does the webhook client posting),
 * the SMSC process, the PostgreSQL backends (database-cpu.ts).
 *
 *   npm run bench -- receipts          (RECEIPTS_BENCH_N=20000 for a run of a few minutes;
 *                                       RECEIPTS_BENCH_PROFILE=dir for a CPU profile of each burst)
 */
import fs from 'node:fs';
import http from 'node:http';
import inspector from 'node:inspector/promises';
import os from 'node:os';
import type { Channel, CreditType } from '@ecoa/shared';
import { WHATSAPP_WEBHOOK_PATH } from '../src/modules/channels/providers/whatsapp/whatsapp.webhook.ts';
import { signWhatsAppBody, statusNotification } from '../src/modules/channels/providers/whatsapp/whatsapp.wire.ts';
import type { DbHandle } from '../src/platform/db/client.ts';
import type { RunningServer } from '../src/server.ts';
import { benchUserWithCredits, startBenchServer } from './bench-server.ts';
import { databaseCpu } from './database-cpu.ts';
import type { BenchContext, BenchFigures } from './run.ts';
import { processCpuMs, startSmscProcess } from './smpp.bench.ts';

const N = Number(process.env.RECEIPTS_BENCH_N ?? 200_000);
const WINDOW = 50;
const WEBHOOK_CONCURRENCY = Number(process.env.RECEIPTS_BENCH_CONCURRENCY ?? 32);
const PORT = Number(process.env.RECEIPTS_BENCH_PORT ?? 3421);
const ALWAYS = { days: [0, 1, 2, 3, 4, 5, 6], start: '00:00', end: '24:00' };
const LIMIT_MS = 30 * 60_000;
/** RECEIPTS_BENCH_PROFILE=dir: a CPU profile of each burst (this process) written there, for DevTools. */
const PROFILE_DIR = process.env.RECEIPTS_BENCH_PROFILE;

/** Starts a CPU profile of this process when asked for; the returned function writes it. */
async function profile(name: string): Promise<() => Promise<void>> {
  if (!PROFILE_DIR) return async () => {};
  const session = new inspector.Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async () => {
    const { profile: result } = await session.post('Profiler.stop');
    fs.mkdirSync(PROFILE_DIR, { recursive: true });
    fs.writeFileSync(`${PROFILE_DIR}/${name}.cpuprofile`, JSON.stringify(result));
    session.disconnect();
  };
}

/** A ready list of n mobiles, written as the import leaves it. */
async function benchList(db: DbHandle, userId: string, n: number): Promise<string> {
  const { rows } = await db.executeSql(
    `insert into contact_lists (user_id, name, status, progress, total, valid, mobiles, file_name, file_kind, file_size)
     values ($1, 'bench', 'ready', 100, $2, $2, $2, 'bench.csv', 'csv', 0) returning id`,
    [userId, n],
  );
  const listId = (rows[0] as { id: string }).id;
  await db.executeSql(
    `insert into contacts (list_id, row_number, phone, kind, name)
     select $1, g, '+55119' || lpad(g::text, 8, '0'), 'mobile', 'Cliente ' || g from generate_series(1, $2) g`,
    [listId, n],
  );
  return listId;
}

/** Whether any of the campaign's rows is in a status other than `status` (two index probes, not a count). */
async function anyOtherThan(db: DbHandle, campaignId: string, status: string): Promise<boolean> {
  const { rows } = await db.executeSql(
    `select exists (select 1 from messages where campaign_id = $1 and status < $2)
         or exists (select 1 from messages where campaign_id = $1 and status > $2) as left`,
    [campaignId, status],
  );
  return (rows[0] as { left: boolean }).left;
}

async function until(what: string, done: () => Promise<boolean>): Promise<void> {
  const started = performance.now();
  while (!(await done())) {
    if (performance.now() - started > LIMIT_MS) throw new Error(`${what}: not within 30 minutes`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function countStatus(db: DbHandle, campaignId: string, status: string): Promise<number> {
  const { rows } = await db.executeSql(
    'select count(*)::int as n from messages where campaign_id = $1 and status = $2',
    [campaignId, status],
  );
  return (rows[0] as { n: number }).n;
}

/** A campaign of n on `channel`, started; resolves once every row is `sent`, with the seconds it took. */
async function sendCampaign(
  server: RunningServer,
  db: DbHandle,
  channel: Channel,
  type: CreditType,
  content: Record<string, unknown>,
  n: number,
  meter: () => (n: number) => Promise<CpuPerItem>,
): Promise<{ campaignId: string; seconds: number; cpu: CpuPerItem }> {
  const { user } = await benchUserWithCredits(server, type, n);
  const listId = await benchList(db, user.id, n);
  const { id } = await server.modules.campaigns.create(user.id, {
    name: `receipts ${channel}`,
    channel,
    listIds: [listId],
    content,
    window: ALWAYS,
  } as Parameters<typeof server.modules.campaigns.create>[1]);
  const cpu = meter();
  const t0 = performance.now();
  await server.modules.campaigns.start(user.id, id);
  await until(`${channel}: every row sent`, async () => !(await anyOtherThan(db, id, 'sent')));
  const seconds = (performance.now() - t0) / 1000;
  return { campaignId: id, seconds, cpu: await cpu(n) };
}

type CpuPerItem = { ecoa: number; child: number; postgres: number };

/** CPU from now to `stop()`: this process, a child process (by pid), the PostgreSQL backends. */
function cpuMeter(db: DbHandle, kind: BenchContext['kind'], childPid?: number) {
  const ecoa = process.cpuUsage();
  const child = childPid ? processCpuMs(childPid) : 0;
  const postgres = kind === 'postgres' ? databaseCpu(db) : undefined;
  return async (n: number): Promise<CpuPerItem> => {
    const used = process.cpuUsage(ecoa);
    return {
      ecoa: Math.round((used.user + used.system) / n),
      child: childPid ? Math.round(((processCpuMs(childPid) - child) * 1000) / n) : 0,
      postgres: postgres ? Math.round(((await postgres.stop()) * 1000) / n) : 0,
    };
  };
}

async function smppBurst({ db, kind }: BenchContext): Promise<BenchFigures> {
  const smsc = await startSmscProcess({ httpPort: 0, holdReceipts: true });
  const control = `http://127.0.0.1:${smsc.httpPort}/__simulator`;
  const counters = async () =>
    (await (await fetch(`${control}/counters?totals=1`)).json()) as {
      messages: number;
      duplicates: number;
      receiptsSent: number;
      receiptsRefused: number;
      receiptsHeld: number;
    };
  try {
    const server = await startBenchServer(db, { port: smsc.port, window: WINDOW });
    try {
      const sent = await sendCampaign(
        server,
        db,
        'sms_short',
        'SMSSHORT',
        { text: 'Ecoa: sua fatura vence amanha. Pague pelo app.' },
        N,
        () => cpuMeter(db, kind, smsc.child.pid),
      );
      // Every receipt is due (immediate) and held: wait for the SMSC to hold them all.
      await until('every receipt held', async () => (await counters()).receiptsHeld >= N);
      const stopProfile = await profile(`receipts-smpp-${kind}`);
      const burstCpu = cpuMeter(db, kind, smsc.child.pid);
      const t0 = performance.now();
      await fetch(`${control}/options`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ holdReceipts: false }),
      });
      // Each deliver_sm_resp OK leaves only once its receipt is committed: the SMSC's count of them
      // says when every receipt is stored, without reading the database meanwhile (a probe of the
      // campaign's rows would cost the database more than the receipts, through the dead index
      // entries of their earlier statuses). Checked in the database once at the end.
      await until('every deliver_sm_resp', async () => (await counters()).receiptsSent >= N);
      const burstSeconds = (performance.now() - t0) / 1000;
      const cpu = await burstCpu(N);
      await stopProfile();
      if (await anyOtherThan(db, sent.campaignId, 'delivered')) throw new Error('acknowledged yet not delivered');
      const final = await counters();
      const sendRate = N / sent.seconds;
      const storeRate = N / burstSeconds;
      return {
        sendEndToEndMsgsPerSec: Math.round(sendRate),
        sendSeconds: Number(sent.seconds.toFixed(1)),
        sendCpuMicrosPerMessageEcoa: sent.cpu.ecoa,
        sendCpuMicrosPerMessageSmsc: sent.cpu.child,
        sendCpuMicrosPerMessagePostgres: sent.cpu.postgres,
        receiptsStoredPerSec: Math.round(storeRate),
        receiptsSeconds: Number(burstSeconds.toFixed(1)),
        receiptsToSendRatio: Number((storeRate / sendRate).toFixed(2)),
        receiptCpuMicrosEcoa: cpu.ecoa,
        receiptCpuMicrosSmsc: cpu.child,
        receiptCpuMicrosPostgres: cpu.postgres,
        delivered: await countStatus(db, sent.campaignId, 'delivered'),
        smscMessages: final.messages,
        smscDuplicates: final.duplicates,
        deliverSmRespOk: final.receiptsSent,
        deliverSmRespRefused: final.receiptsRefused,
      };
    } finally {
      await server.close();
    }
  } finally {
    smsc.child.stdin?.end();
    smsc.child.kill('SIGTERM');
  }
}

/** Posts each body with `parallel` in flight on kept-alive connections; counts the answers by status. */
async function postAll(
  url: URL,
  bodies: { body: Buffer; signature: string }[],
  parallel: number,
): Promise<Record<number, number>> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: parallel });
  const answers: Record<number, number> = {};
  let next = 0;
  const post = ({ body, signature }: { body: Buffer; signature: string }) =>
    new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'content-length': body.length,
            'x-hub-signature-256': signature,
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < bodies.length) {
        const status = await post(bodies[next++]!);
        answers[status] = (answers[status] ?? 0) + 1;
      }
    }),
  );
  agent.destroy();
  return answers;
}

async function whatsappBurst({ db, kind }: BenchContext): Promise<BenchFigures> {
  const server = await startBenchServer(db, undefined, {
    port: PORT,
    // No pace, no latency, and no status callbacks of its own: the bench posts them.
    simulators: { whatsapp: { latencyMs: 0, throughputPerSecond: 1_000_000, callbackUrl: null } },
  });
  try {
    const sim = server.providers.simulators.whatsapp!;
    const sent = await sendCampaign(
      server,
      db,
      'whatsapp',
      'WHATSAPP',
      { template: { name: 'cobranca_aviso', language: 'pt_BR', params: ['{nome}'] } },
      N,
      () => cpuMeter(db, kind),
    );
    const { rows } = await db.executeSql(
      `select p.provider_message_id as wamid, m.to_phone as phone from provider_message_ids p
       join messages m on m.id = p.message_id where m.campaign_id = $1`,
      [sent.campaignId],
    );
    const timestamp = Math.floor(Date.now() / 1000) + 1;
    const bodies = (rows as { wamid: string; phone: string }[]).map(({ wamid, phone }) => {
      const body = Buffer.from(
        JSON.stringify(
          statusNotification({
            phoneNumberId: sim.config.phoneNumberId,
            wamid,
            status: 'delivered',
            timestamp,
            recipient: phone.slice(1),
          }),
        ),
      );
      return { body, signature: signWhatsAppBody(sim.config.appSecret, body) };
    });
    if (bodies.length !== N) throw new Error(`${bodies.length} wamids for ${N} messages`);
    const url = new URL(`http://127.0.0.1:${PORT}/api/webhooks/whatsapp${WHATSAPP_WEBHOOK_PATH}`);
    const stopProfile = await profile(`receipts-whatsapp-${kind}`);
    const burstCpu = cpuMeter(db, kind);
    const t0 = performance.now();
    const answers = await postAll(url, bodies, WEBHOOK_CONCURRENCY);
    // Each 200 was sent once its status was committed: by now every row is delivered.
    const burstSeconds = (performance.now() - t0) / 1000;
    const cpu = await burstCpu(N);
    await stopProfile();
    if (await anyOtherThan(db, sent.campaignId, 'delivered')) throw new Error('answered 200 yet not delivered');
    const sendRate = N / sent.seconds;
    const storeRate = N / burstSeconds;
    return {
      sendEndToEndMsgsPerSec: Math.round(sendRate),
      sendSeconds: Number(sent.seconds.toFixed(1)),
      sendCpuMicrosPerMessageEcoa: sent.cpu.ecoa,
      sendCpuMicrosPerMessagePostgres: sent.cpu.postgres,
      webhookConcurrency: WEBHOOK_CONCURRENCY,
      receiptsStoredPerSec: Math.round(storeRate),
      receiptsSeconds: Number(burstSeconds.toFixed(1)),
      receiptsToOwnSendRatio: Number((storeRate / sendRate).toFixed(2)),
      receiptCpuMicrosEcoaAndClient: cpu.ecoa,
      receiptCpuMicrosPostgres: cpu.postgres,
      answered200: answers[200] ?? 0,
      answeredOther: Object.entries(answers)
        .filter(([status]) => status !== '200')
        .reduce((sum, [, count]) => sum + count, 0),
      delivered: await countStatus(db, sent.campaignId, 'delivered'),
    };
  } finally {
    await server.close();
  }
}

export async function run(ctx: BenchContext): Promise<BenchFigures> {
  const smpp = await smppBurst(ctx);
  console.log(`receipts (${ctx.kind}) smpp:`, smpp);
  const whatsapp = await whatsappBurst(ctx);
  console.log(`receipts (${ctx.kind}) whatsapp:`, whatsapp);
  const figures: BenchFigures = { receipts: N, loadAverageAtEnd: Number(os.loadavg()[0]!.toFixed(1)) };
  for (const [k, v] of Object.entries(smpp)) figures[`smpp_${k}`] = v;
  for (const [k, v] of Object.entries(whatsapp)) figures[`whatsapp_${k}`] = v;
  // The goal's baseline: the SMPP campaign's end-to-end send rate, measured in this run.
  figures.whatsapp_receiptsToSmppSendRatio = Number(
    ((whatsapp.receiptsStoredPerSec as number) / (smpp.sendEndToEndMsgsPerSec as number)).toFixed(2),
  );
  return figures;
}
