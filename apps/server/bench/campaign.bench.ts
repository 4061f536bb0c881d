/**
 * A whole SMS campaign end to end: start (snapshot + reservation) → every recipient submitted over
 * SMPP to the simulated SMSC running as its own process with no throughput limit → every receipt
 * recorded (all recipients `delivered` in the database). In the same run, the ceiling: the
 * `smpp` package's bare client loop (no database) on the same number of messages and window.
 * Setup (not timed): a user with credits through the real sign-up, a ready list written with
 * set-based SQL as the import would leave it.
 *
 *   npm run bench -- campaign          (CAMPAIGN_BENCH_N recipients, 100000 by default, on both databases)
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { benchUserWithCredits, startBenchServer } from './bench-server.ts';
import { databaseCpu } from './database-cpu.ts';
import type { BenchContext, BenchFigures } from './run.ts';
import { bareLoop, processCpuMs, startSmscProcess } from './smpp.bench.ts';

const WINDOW = 50;
const ALWAYS = { days: [0, 1, 2, 3, 4, 5, 6], start: '00:00', end: '24:00' };

export async function run({ db, kind }: BenchContext): Promise<BenchFigures> {
  const n = Number(process.env.CAMPAIGN_BENCH_N ?? 100_000);
  const smsc = await startSmscProcess({ httpPort: 0 });
  type Counters = { messages: number; duplicates: number; receiptsSent: number };
  const counters = async (): Promise<Counters> => {
    // Asked again when the answer is lost or late: on PGlite the start holds this thread for seconds, and
    // the SMSC's control port closes the idle keep-alive connection meanwhile ("other side closed").
    for (let attempt = 1; ; attempt++) {
      try {
        return (await (
          await fetch(`http://127.0.0.1:${smsc.httpPort}/__simulator/counters?totals=1`, {
            signal: AbortSignal.timeout(10_000),
          })
        ).json()) as Counters;
      } catch (err) {
        if (attempt >= 3) throw err;
      }
    }
  };
  try {
    // The ceiling first: the package's own loop, no database, same SMSC, same window.
    const smscBeforeBare = processCpuMs(smsc.child.pid!);
    const bare = await bareLoop(smsc.port, n, WINDOW);
    const bareSmscCpuMs = processCpuMs(smsc.child.pid!) - smscBeforeBare;
    await fetch(`http://127.0.0.1:${smsc.httpPort}/__simulator/reset`, { method: 'POST' });

    const server = await startBenchServer(db, { port: smsc.port, window: WINDOW });
    try {
      const { user } = await benchUserWithCredits(server, 'SMSSHORT', n);
      const { rows } = await db.executeSql(
        `insert into contact_lists (user_id, name, status, progress, total, valid, mobiles, file_name, file_kind, file_size)
         values ($1, 'bench', 'ready', 100, $2, $2, $2, 'bench.csv', 'csv', 0) returning id`,
        [user.id, n],
      );
      const listId = (rows[0] as { id: string }).id;
      await db.executeSql(
        `insert into contacts (list_id, row_number, phone, kind, name)
         select $1, g, '+55119' || lpad(g::text, 8, '0'), 'mobile', 'Cliente ' || g from generate_series(1, $2) g`,
        [listId, n],
      );

      const rssStart = process.memoryUsage().rss;
      let rssPeak = rssStart;
      const sampler = setInterval(() => {
        rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
      }, 100);
      const pipe = { samples: 0, windowFull: 0, idle: 0 };
      const pipeSampler = setInterval(() => {
        const h = server.modules.channels.health().find((p) => p.provider === 'smpp');
        if (!h) return;
        pipe.samples++;
        if (h.inFlight >= WINDOW) pipe.windowFull++;
        if (h.inFlight === 0) pipe.idle++;
      }, 5);
      const { id } = await server.modules.campaigns.create(user.id, {
        name: 'bench',
        channel: 'sms_short',
        listIds: [listId],
        content: { text: 'Ecoa: sua fatura vence amanha. Pague pelo app.' },
        window: ALWAYS,
      });
      // Where the CPU goes: this process (Ecoa; PGlite runs inside it), the SMSC, the PostgreSQL server.
      const cpu0 = { ecoa: process.cpuUsage(), smsc: processCpuMs(smsc.child.pid!) };
      const postgresCpu = kind === 'postgres' ? databaseCpu(db) : undefined;
      const lag = monitorEventLoopDelay({ resolution: 1 });
      lag.enable();
      const t0 = performance.now();
      await server.modules.campaigns.start(user.id, id);
      const startMs = performance.now() - t0;
      let submittedAt = 0;
      // Done when no recipient is left in a status other than `delivered`: two index probes, not a
      // count of every row four times a second (which would cost the database more than the run).
      const undelivered = async () => {
        const { rows } = await db.executeSql(
          `select exists (select 1 from messages where campaign_id = $1 and status < 'delivered')
               or exists (select 1 from messages where campaign_id = $1 and status > 'delivered') as left`,
          [id],
        );
        return (rows[0] as { left: boolean }).left;
      };
      for (;;) {
        const c = await counters();
        if (!submittedAt && c.messages >= n) submittedAt = performance.now();
        if (!(await undelivered())) break;
        if (process.env.BENCH_DEBUG) console.error('progress', Math.round(performance.now() - t0), c);
        if (performance.now() - t0 > 30 * 60_000) throw new Error('the campaign did not finish in 30 minutes');
        await new Promise((r) => setTimeout(r, 100));
      }
      const totalS = (performance.now() - t0) / 1000;
      lag.disable();
      const ecoaCpu = process.cpuUsage(cpu0.ecoa);
      const cpuMicrosPerMessage = {
        ecoa: Math.round((ecoaCpu.user + ecoaCpu.system) / n),
        smsc: Math.round(((processCpuMs(smsc.child.pid!) - cpu0.smsc) * 1000) / n),
        postgres: postgresCpu ? Math.round(((await postgresCpu.stop()) * 1000) / n) : 0,
      };
      clearInterval(sampler);
      clearInterval(pipeSampler);
      const final = await counters();
      const { rows: delivered } = await db.executeSql(
        "select count(*)::int as n from messages where campaign_id = $1 and status = 'delivered'",
        [id],
      );
      if ((delivered[0] as { n: number }).n !== n) throw new Error('not every recipient was delivered');
      const campaign = await server.modules.campaigns.get(user.id, id);
      const bareRate = n / bare.seconds;
      const e2eRate = n / totalS;
      const figures: BenchFigures = {
        recipients: n,
        smppWindow: WINDOW,
        bareLoopMsgsPerSec: Math.round(bareRate),
        startMs: Math.round(startMs),
        submitPhaseMsgsPerSec: Math.round(n / ((submittedAt - t0) / 1000)),
        endToEndMsgsPerSec: Math.round(e2eRate),
        ratioToBare: Number((e2eRate / bareRate).toFixed(3)),
        endToEndSeconds: Number(totalS.toFixed(1)),
        rssStartMb: Math.round(rssStart / 1e6),
        rssPeakMb: Math.round(rssPeak / 1e6),
        smscMessages: final.messages,
        smscDuplicates: final.duplicates,
        creditsUsed: campaign.credits.used,
        creditsReleased: campaign.credits.released,
        status: campaign.status,
        smppWindowFullShare: Number((pipe.windowFull / pipe.samples).toFixed(2)),
        smppIdleShare: Number((pipe.idle / pipe.samples).toFixed(2)),
        eventLoopDelayP50Ms: Number((lag.percentile(50) / 1e6).toFixed(1)),
        eventLoopDelayP99Ms: Number((lag.percentile(99) / 1e6).toFixed(1)),
        cpuMicrosPerMessageEcoa: cpuMicrosPerMessage.ecoa,
        cpuMicrosPerMessageSmsc: cpuMicrosPerMessage.smsc,
        cpuMicrosPerMessagePostgres: cpuMicrosPerMessage.postgres,
        bareCpuMicrosPerMessageClient: Math.round((bare.cpuMs * 1000) / n),
        bareCpuMicrosPerMessageSmsc: Math.round((bareSmscCpuMs * 1000) / n),
        ...Object.fromEntries(
          Object.entries(server.modules.dispatcher.stats()).map(([phase, v]) => [`dispatch_${phase}`, Math.round(v)]),
        ),
      };
      console.log(`campaign (${kind}):`, figures);
      return figures;
    } finally {
      await server.close();
    }
  } finally {
    smsc.child.stdin?.end();
    smsc.child.kill('SIGTERM');
  }
}
