/**
 * SMPP throughput: the `smpp` package's client alone (no Ecoa code: a bare loop that keeps
 * `window` submit_sm in flight and counts the receipts) against Ecoa's adapter (encoding, the
 * submit queue, window and TPS accounting, id canonicalisation, receipt parsing and events) on
 * the same N messages, against the same simulated SMSC running as a separate process with no
 * throughput limit and immediate "delivered" receipts. Receipts are counted in both, and matched
 * to the submit ids in the adapter's run. No database: it runs once, on the PGlite pass.
 *
 *   npm run bench -- smpp          (SMPP_BENCH_N=50000 for a longer run)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { encodeGsm7 } from '@ecoa/shared';
import smpp from 'smpp';
import { encodePdu, encodeSubmitSm } from '../src/modules/channels/providers/smpp/pdu.ts';
import { outboundParts, submitSmFields } from '../src/modules/channels/providers/smpp/short-message.ts';
import { SmppProvider } from '../src/modules/channels/providers/smpp/smpp.provider.ts';
import type { BenchContext, BenchFigures } from './run.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const N = Number(process.env.SMPP_BENCH_N ?? 20_000);
const WINDOW = Number(process.env.SMPP_BENCH_WINDOW ?? 10);
const TEXT = 'Ecoa: sua fatura de R$ 89,90 vence amanha. Pague pelo app e evite juros.';
export const SMPP_BENCH_CREDENTIALS = { systemId: 'bench', password: 'bench-pass' };

/** The simulated SMSC as a separate process (no throughput limit, immediate receipts). */
export async function startSmscProcess(
  extra: Record<string, unknown> = {},
): Promise<{ child: ChildProcess; port: number; httpPort: number | null }> {
  const options = {
    ...SMPP_BENCH_CREDENTIALS,
    httpPort: null,
    receiptLatencyMs: 0,
    outcomes: { delivered: 1, undelivered: 0, expired: 0, rejected: 0 },
    keepRecords: 0,
    ...extra,
  };
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(here, 'smsc-process.ts'), JSON.stringify(options)],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const line = await new Promise<string>((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout! });
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the SMSC process exited (${code}) before listening`)));
  });
  const { port, httpPort } = JSON.parse(line) as { port: number; httpPort: number | null };
  return { child, port, httpPort };
}

/** CPU time (user + system) a process used so far, from /proc (0 where there is none). */
export function processCpuMs(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

/** The package's client and nothing else: bind, keep WINDOW submits in flight, count receipts. */
export async function bareLoop(port: number, n: number, window = WINDOW): Promise<{ seconds: number; cpuMs: number }> {
  const session = smpp.connect({ host: '127.0.0.1', port });
  session.on('error', () => {});
  // The adapter turns Nagle off on its socket; the baseline gets the same socket option.
  session.socket.setNoDelay(true);
  await new Promise<void>((resolve, reject) =>
    session.bind_transceiver(
      {
        system_id: SMPP_BENCH_CREDENTIALS.systemId,
        password: SMPP_BENCH_CREDENTIALS.password,
        interface_version: 0x34,
      },
      (pdu: { command_status: number }) => (pdu.command_status === 0 ? resolve() : reject(new Error('bind refused'))),
    ),
  );
  const body = Buffer.from(encodeGsm7(TEXT));
  const started = performance.now();
  const cpu = process.cpuUsage();
  await new Promise<void>((resolve) => {
    let sent = 0;
    let answered = 0;
    let receipts = 0;
    let inFlight = 0;
    const done = () => answered === n && receipts === n && resolve();
    session.on('deliver_sm', (pdu: { esm_class: number; response(): unknown }) => {
      session.send(pdu.response() as never);
      if (pdu.esm_class & 0x04) receipts++;
      done();
    });
    const fill = () => {
      while (inFlight < window && sent < n) {
        inFlight++;
        // Every message to its own number, as in a campaign (the SMSC keeps counts per destination).
        const to = `55119${String(10_000_000 + sent).slice(-8)}`;
        sent++;
        session.submit_sm(
          {
            destination_addr: to,
            dest_addr_ton: 1,
            dest_addr_npi: 1,
            registered_delivery: 1,
            data_coding: 0,
            short_message: body,
          },
          () => {
            inFlight--;
            answered++;
            fill();
            done();
          },
        );
      }
    };
    fill();
  });
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  await new Promise<void>((resolve) => session.unbind(() => resolve()));
  session.close();
  return { seconds, cpuMs: (used.user + used.system) / 1000 };
}

/** Ecoa's adapter on the same n: every submit resolved, every receipt matched to a submit id. */
async function adapterRun(port: number, n: number): Promise<{ seconds: number; cpuMs: number }> {
  const provider = new SmppProvider({
    host: '127.0.0.1',
    port,
    ...SMPP_BENCH_CREDENTIALS,
    // The bench measures the adapter's own cost: TPS high enough never to wait.
    tps: 1_000_000,
    window: WINDOW,
    mode: 'simulator',
    maxQueuedParts: n + 1,
  });
  const ids = new Set<string>();
  const receipted: string[] = [];
  let matched = 0;
  let allReceipts: () => void = () => {};
  const receiptsDone = new Promise<void>((resolve) => {
    allReceipts = resolve;
  });
  const check = () => {
    if (matched === n) allReceipts();
  };
  provider.onEvent(async (event) => {
    if (event.type !== 'status') return;
    // A receipt may come before its submit_sm_resp: matched now, or when the submit resolves.
    if (ids.has(event.providerMessageId)) matched++;
    else receipted.push(event.providerMessageId);
    check();
  });
  await provider.ready();
  const started = performance.now();
  const cpu = process.cpuUsage();
  const submits = Array.from({ length: n }, (_, i) =>
    provider
      .submit({
        id: `bench-${i}`,
        channel: 'sms_short',
        to: `+55119${String(10_000_000 + i).slice(-8)}`,
        content: { kind: 'sms', text: TEXT, flash: false },
      })
      .then((result) => {
        const id = result.providerMessageIds[0]!;
        ids.add(id);
        const early = receipted.indexOf(id);
        if (early >= 0) {
          receipted.splice(early, 1);
          matched++;
          check();
        }
      }),
  );
  await Promise.all(submits);
  await receiptsDone;
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  await provider.close();
  return { seconds, cpuMs: (used.user + used.system) / 1000 };
}

/**
 * CPU per submit_sm encoded, in µs: the `smpp` package's encoder (what Ecoa used for every part
 * until 2026-11-28, the same-run baseline) and Ecoa's direct writer of the same bytes.
 */
function encodingCost(n = 200_000) {
  const fields = submitSmFields(outboundParts(TEXT, false, 1)[0]!, '5511987654321', '5511999990000');
  const cpuMicros = (encode: (sequence: number) => Buffer) => {
    for (let i = 1; i <= n / 10; i++) encode(i);
    const t0 = process.cpuUsage();
    for (let i = 1; i <= n; i++) encode(i);
    const used = process.cpuUsage(t0);
    return Math.round(((used.user + used.system) / n) * 100) / 100;
  };
  return {
    packageMicros: cpuMicros((sequence) =>
      new smpp.PDU('submit_sm', { ...fields, sequence_number: sequence, command_status: 0 }).toBuffer(),
    ),
    directMicros: cpuMicros((sequence) => encodeSubmitSm(sequence, fields)),
    // The answer to every receipt.
    receiptAnswerPackageMicros: cpuMicros((sequence) =>
      new smpp.PDU('deliver_sm_resp', { sequence_number: sequence, command_status: 0 }).toBuffer(),
    ),
    receiptAnswerDirectMicros: cpuMicros((sequence) => encodePdu('deliver_sm_resp', sequence)),
  };
}

export async function run({ kind }: BenchContext): Promise<BenchFigures> {
  if (kind !== 'pglite') return { skipped: 'no database used: measured once, on the PGlite pass' };
  const { child, port } = await startSmscProcess();
  try {
    // A warm-up of both paths (the JIT in both processes) before measuring.
    await bareLoop(port, Math.ceil(N / 10));
    await adapterRun(port, Math.ceil(N / 10));
    const smscBefore = processCpuMs(child.pid!);
    const bare = await bareLoop(port, N);
    const smscBetween = processCpuMs(child.pid!);
    const adapter = await adapterRun(port, N);
    const smscAfter = processCpuMs(child.pid!);
    const rate = (s: number) => Math.round(N / s);
    const encoding = encodingCost();
    const figures = {
      submitEncodeCpuMicrosPackage: encoding.packageMicros,
      submitEncodeCpuMicrosDirect: encoding.directMicros,
      deliverSmRespEncodeCpuMicrosPackage: encoding.receiptAnswerPackageMicros,
      deliverSmRespEncodeCpuMicrosDirect: encoding.receiptAnswerDirectMicros,
      messages: N,
      window: WINDOW,
      bareMsgsPerSecond: rate(bare.seconds),
      adapterMsgsPerSecond: rate(adapter.seconds),
      adapterToBareRatio: Math.round((rate(adapter.seconds) / rate(bare.seconds)) * 100) / 100,
      bareClientCpuMicrosPerMessage: Math.round((bare.cpuMs * 1000) / N),
      adapterClientCpuMicrosPerMessage: Math.round((adapter.cpuMs * 1000) / N),
      smscCpuMicrosPerMessageBare: Math.round(((smscBetween - smscBefore) * 1000) / N),
      smscCpuMicrosPerMessageAdapter: Math.round(((smscAfter - smscBetween) * 1000) / N),
    };
    console.log(
      `smpp: bare ${figures.bareMsgsPerSecond} msgs/s, adapter ${figures.adapterMsgsPerSecond} msgs/s ` +
        `(ratio ${figures.adapterToBareRatio}; client CPU ${figures.bareClientCpuMicrosPerMessage} vs ` +
        `${figures.adapterClientCpuMicrosPerMessage} µs/message; SMSC CPU ${figures.smscCpuMicrosPerMessageBare} vs ` +
        `${figures.smscCpuMicrosPerMessageAdapter} µs/message)`,
    );
    return figures;
  } finally {
    child.stdin?.end();
    child.kill('SIGTERM');
  }
}
