/**
 * The sending API end to end: `POST /api/v1/messages/batch` with an API key (`ecoa_…`, scope
 * `messages:send`) through Fastify's inject → the batch's transaction → the campaign engine's
 * dispatch → every message submitted over SMPP to the simulated SMSC running as its own process
 * (no throughput limit, immediate receipts) → every receipt recorded (all `delivered` in the
 * database). In the same run, the ceiling: the `smpp` package's bare client loop (smpp.bench.ts's
 * `bareLoop`, no database) on the same number of messages and window.
 *
 *   npm run bench -- batch-carrier     (BATCH_CARRIER_BENCH_SIZES, "1000,10000" by default)
 */
import { bearer } from '../test/factories.test-support.ts';
import { benchUserWithCredits, startBenchServer } from './bench-server.ts';
import type { BenchContext, BenchFigures } from './run.ts';
import { bareLoop, startSmscProcess } from './smpp.bench.ts';

const WINDOW = 50;
const ALWAYS = { days: [0, 1, 2, 3, 4, 5, 6], start: '00:00', end: '24:00' };

export async function run({ db, kind }: BenchContext): Promise<BenchFigures> {
  const sizes = (process.env.BATCH_CARRIER_BENCH_SIZES ?? '1000,10000').split(',').map(Number);
  const smsc = await startSmscProcess({ httpPort: 0 });
  try {
    const server = await startBenchServer(db, { port: smsc.port, window: WINDOW });
    try {
      const total = sizes.reduce((a, b) => a + b, 0);
      const { token } = await benchUserWithCredits(server, 'SMSSHORT', total);
      const created = await server.app.inject({
        method: 'POST',
        url: '/api/v1/api-keys',
        headers: bearer(token),
        payload: { name: 'bench', scopes: ['messages:send', 'messages:read'] },
      });
      if (created.statusCode !== 201) throw new Error(`key refused: ${created.body}`);
      const key = created.json().key as string;

      let seq = 0;
      const figures: BenchFigures = { smppWindow: WINDOW };
      for (const n of sizes) {
        // The ceiling on this size: the package's own loop, no database, same SMSC, same window.
        const bare = await bareLoop(smsc.port, n, WINDOW);
        const payload = JSON.stringify({
          channel: 'sms_short',
          text: 'Ecoa: seu pedido {pedido} saiu para entrega.',
          window: ALWAYS,
          messages: Array.from({ length: n }, () => {
            seq++;
            return { to: `+55119${String(seq).padStart(8, '0')}`, variables: { pedido: String(seq) } };
          }),
        });
        const t0 = performance.now();
        const res = await server.app.inject({
          method: 'POST',
          url: '/api/v1/messages/batch',
          headers: {
            ...bearer(key),
            'content-type': 'application/json',
            'idempotency-key': `bench-${n}-${Date.now()}`,
          },
          payload,
        });
        const requestMs = performance.now() - t0;
        if (res.statusCode !== 202 || res.json().accepted.length !== n)
          throw new Error(`batch refused: ${res.body.slice(0, 300)}`);
        const batchId = res.json().batchId as string;
        // Done when no message of the batch is in a status other than `delivered` (two index probes).
        const undelivered = async () => {
          const { rows } = await db.executeSql(
            `select exists (select 1 from messages where campaign_id = $1 and status < 'delivered')
                 or exists (select 1 from messages where campaign_id = $1 and status > 'delivered') as left`,
            [batchId],
          );
          return (rows[0] as { left: boolean }).left;
        };
        while (await undelivered()) {
          if (performance.now() - t0 > 30 * 60_000) throw new Error('the batch was not delivered in 30 minutes');
          await new Promise((r) => setTimeout(r, 50));
        }
        const seconds = (performance.now() - t0) / 1000;
        const { rows } = await db.executeSql(
          "select count(*)::int as n from messages where campaign_id = $1 and status = 'delivered'",
          [batchId],
        );
        if ((rows[0] as { n: number }).n !== n) throw new Error('not every message was delivered');
        const bareRate = n / bare.seconds;
        const rate = n / seconds;
        Object.assign(figures, {
          [`n${n}_requestMs`]: Math.round(requestMs),
          [`n${n}_endToEndSeconds`]: Number(seconds.toFixed(2)),
          [`n${n}_endToEndMsgsPerSec`]: Math.round(rate),
          [`n${n}_bareLoopMsgsPerSec`]: Math.round(bareRate),
          [`n${n}_ratioToBare`]: Number((rate / bareRate).toFixed(3)),
        });
        console.log(
          `batch-carrier (${kind}) ${n}: request ${Math.round(requestMs)} ms, all delivered in ${seconds.toFixed(2)} s ` +
            `= ${Math.round(rate)} msgs/s; bare SMPP loop ${Math.round(bareRate)} msgs/s (ratio ${(rate / bareRate).toFixed(3)})`,
        );
      }
      return figures;
    } finally {
      await server.close();
    }
  } finally {
    smsc.child.stdin?.end();
    smsc.child.kill('SIGTERM');
  }
}
