/**
 * The sending API's 10,000-message batch, request → committed (`POST /api/v1/messages/batch`
 * through Fastify's inject: JSON parse, zod, the checks, one transaction that writes the batch's
 * campaign row, its 10,000 messages, the ledger's reservation, the dispatch job and the
 * Idempotency-Key's stored answer), against a bare baseline: one `insert … select from unnest`
 * of 10,000 message rows, nothing else. Then where the time goes: the body's zod parse, the
 * checks (`prepare`: phones, opt-outs, rendering) and the transaction (`queue`), each alone.
 * The batch is scheduled an hour ahead so no dispatch competes with the measure.
 *
 *   npm run bench -- messages-batch     (MESSAGES_BATCH_BENCH_N, 10000 by default; 5 runs, the median)
 */
import { type SendBatchRequest, sendBatchRequestSchema } from '@ecoa/shared';
import { bearer } from '../test/factories.test-support.ts';
import { benchUserWithCredits, startBenchServer } from './bench-server.ts';
import type { BenchContext, BenchFigures } from './run.ts';

const RUNS = 5;
const ALWAYS = { days: [0, 1, 2, 3, 4, 5, 6], start: '00:00', end: '24:00' };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round = (x: number) => Math.round(x * 10) / 10;

export async function run({ db }: BenchContext): Promise<BenchFigures> {
  const n = Number(process.env.MESSAGES_BATCH_BENCH_N ?? 10_000);
  const server = await startBenchServer(db);
  try {
    const { user, token } = await benchUserWithCredits(server, 'SMSSHORT', n * RUNS * 4);
    let seq = 0;
    const batch = (): SendBatchRequest => ({
      channel: 'sms_short',
      text: 'Ecoa: seu pedido {pedido} saiu para entrega.',
      scheduledAt: new Date(Date.now() + 3_600_000).toISOString(),
      window: ALWAYS,
      messages: Array.from({ length: n }, () => {
        seq++;
        return {
          to: `+55119${String(seq).padStart(8, '0')}`,
          variables: { pedido: String(seq) },
          externalId: `p-${seq}`,
        };
      }),
    });

    // The whole request, with and without an Idempotency-Key (its stored answer is the whole response).
    const request = async (key?: string) => {
      const payload = JSON.stringify(batch());
      const t0 = performance.now();
      const res = await server.app.inject({
        method: 'POST',
        url: '/api/v1/messages/batch',
        headers: { ...bearer(token), 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
        payload,
      });
      const ms = performance.now() - t0;
      if (res.statusCode !== 202 || res.json().accepted.length !== n)
        throw new Error(`batch refused: ${res.body.slice(0, 300)}`);
      return { ms, bytes: payload.length, answerBytes: res.body.length };
    };
    await request(); // warm-up: first statements prepared, code paths compiled
    const plain: number[] = [];
    const keyed: number[] = [];
    let sizes = { bytes: 0, answerBytes: 0 };
    for (let i = 0; i < RUNS; i++) {
      const r = await request();
      plain.push(r.ms);
      sizes = r;
      keyed.push((await request(`bench-${i}-${Date.now()}`)).ms);
    }

    // The phases alone.
    const zodMs: number[] = [];
    const prepareMs: number[] = [];
    const queueMs: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const body = batch();
      let t0 = performance.now();
      const input = sendBatchRequestSchema.parse(body);
      zodMs.push(performance.now() - t0);
      t0 = performance.now();
      const prepared = await server.modules.apiSends.prepare(user.id, input, input.messages);
      prepareMs.push(performance.now() - t0);
      t0 = performance.now();
      await db.db.transaction((tx) => server.modules.apiSends.queue(prepared, tx));
      queueMs.push(performance.now() - t0);
    }

    // The baseline: the same number of message rows in one bare statement.
    const { rows } = await db.executeSql('select id from campaigns where user_id = $1 limit 1', [user.id]);
    const campaignId = (rows[0] as { id: string }).id;
    const bareMs: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const phones = Array.from({ length: n }, () => `+55119${String(++seq).padStart(8, '0')}`);
      const t0 = performance.now();
      await db.executeSql(
        `insert into messages (user_id, channel, to_phone, status, parts, provider, content, campaign_id)
         select $1, 'sms_short', p, 'queued', 1, 'smpp', '{"kind":"sms","text":"x","flash":false}'::jsonb, $2
         from unnest($3::text[]) p`,
        [user.id, campaignId, `{${phones.join(',')}}`],
      );
      bareMs.push(performance.now() - t0);
    }

    const request_ = median(plain);
    const bare = median(bareMs);
    return {
      messages: n,
      requestBytes: sizes.bytes,
      answerBytes: sizes.answerBytes,
      requestMs: round(request_),
      requestWithIdempotencyKeyMs: round(median(keyed)),
      bareInsertMs: round(bare),
      ratioToBareInsert: round(request_ / bare),
      messagesPerSecond: Math.round((n / request_) * 1000),
      zodParseMs: round(median(zodMs)),
      prepareMs: round(median(prepareMs)),
      queueTransactionMs: round(median(queueMs)),
    };
  } finally {
    await server.close();
  }
}
