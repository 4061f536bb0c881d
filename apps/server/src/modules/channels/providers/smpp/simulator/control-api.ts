/**
 * The simulator's HTTP control API (loopback only), for the e2e tests and `npm run simulators`:
 *   GET  /__simulator/counters      what the SMSC received (parts, messages, per destination…; ?totals=1 without the per-destination part)
 *   POST /__simulator/reset         counters back to zero
 *   POST /__simulator/options       {…partial options} (options.ts): latency (responseLatencyMs, answers
 *                                   throttled ones too), outcomes, throttling (throttleShare,
 *                                   throttleAboveTps, throttleAllForMs: every submit for that long
 *                                   from now), receipt layouts (receiptStyle, receiptTlvNul,
 *                                   receiptTextIn, messageIdStyle, receiptIdStyle), drops,
 *                                   holdReceipts (true: receipts due are kept; false: every kept one
 *                                   is sent at once, a carrier's burst)…
 *   POST /__simulator/mo            {from, to, text}: a phone's reply, sent on the bind
 *   POST /__simulator/drop          cuts every bind now
 */
import http from 'node:http';
import { readBody } from '../../http-kit/simulator-kit.ts';
import type { SmscCounters } from './ledger.ts';
import type { MoRequest } from './mo.ts';
import type { SmscSimulatorOptions } from './options.ts';

/** What the control API drives: the SMSC simulator's own methods (smsc-simulator.ts passes itself). */
export type ControlledSmsc = {
  options(): SmscSimulatorOptions;
  setOptions(partial: Partial<SmscSimulatorOptions>): void;
  counters(): SmscCounters & { bound: number; receiptsHeld: number };
  reset(): void;
  sendMo(request: MoRequest): Promise<{ parts: number; statuses: number[] }>;
  dropBinds(): void;
};

export type ControlApi = { port: number; close(): Promise<void> };

const MAX_BODY_BYTES = 64 * 1024;

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  const text = (await readBody(req, MAX_BODY_BYTES)).toString('utf8');
  return text ? JSON.parse(text) : {};
}

function isMoRequest(body: unknown): body is MoRequest {
  const b = body as Partial<MoRequest> | null;
  return typeof b?.from === 'string' && typeof b.to === 'string' && typeof b.text === 'string' && b.text.length > 0;
}

export async function startControlApi(simulator: ControlledSmsc, host: string, port: number): Promise<ControlApi> {
  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server = http.createServer((req, res) => {
    const route = `${req.method} ${req.url?.split('?')[0]}`;
    const handle = async () => {
      switch (route) {
        case 'GET /__simulator/counters': {
          // `?totals=1` leaves out the per-destination counts (megabytes after 100,000 messages; benches poll this).
          const { perDestination, ...totals } = simulator.counters();
          return send(res, 200, req.url?.includes('totals=1') ? totals : { ...totals, perDestination });
        }
        case 'POST /__simulator/reset':
          simulator.reset();
          return send(res, 200, { reset: true });
        case 'POST /__simulator/options': {
          const body = await readJson(req);
          if (typeof body !== 'object' || body === null || Array.isArray(body)) {
            return send(res, 400, { message: 'options must be a JSON object' });
          }
          simulator.setOptions(body as Record<string, never>);
          return send(res, 200, simulator.options());
        }
        case 'POST /__simulator/mo': {
          const body = await readJson(req);
          if (!isMoRequest(body)) return send(res, 400, { message: 'expected {from, to, text}' });
          return send(res, 200, await simulator.sendMo(body));
        }
        case 'POST /__simulator/drop':
          simulator.dropBinds();
          return send(res, 200, { dropped: true });
        default:
          return send(res, 404, { message: `no route ${route}` });
      }
    };
    handle().catch((err: Error) => send(res, 409, { message: err.message }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
