/**
 * The pieces the HTTP carrier simulators share: a loopback node:http server, bounded request
 * bodies, the carrier-side rate limiter, scheduled webhook deliveries that tests can wait for,
 * and the `/__simulator/*` control API (counters, reset, options, an inbound message).
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';

export type SimRequest = {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
};
export type SimResponse = { status: number; body?: string | Buffer | object; contentType?: string };
export type SimHandler = (request: SimRequest) => Promise<SimResponse>;

const MAX_REQUEST_BYTES = 4 * 1024 * 1024;

/** Where a simulator listens (port 0: any free port). */
export type SimulatorAddress = { host: string; port: number };

/** Starts a server on loopback; a handler's exception is a 500, never a crash. */
export async function listen(
  handler: SimHandler,
  options: SimulatorAddress,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    readBody(req)
      .then(async (body) => {
        const url = new URL(req.url ?? '/', 'http://simulator');
        return handler({
          method: req.method ?? 'GET',
          path: url.pathname,
          query: url.searchParams,
          headers: req.headers,
          body,
        });
      })
      .catch((err: unknown): SimResponse => ({ status: 500, body: { error: { message: String(err), code: 1 } } }))
      .then((answer) => {
        const text =
          typeof answer.body === 'string' || Buffer.isBuffer(answer.body)
            ? answer.body
            : JSON.stringify(answer.body ?? {});
        res.writeHead(answer.status, { 'content-type': answer.contentType ?? 'application/json; charset=UTF-8' });
        res.end(text);
      })
      .catch(() => res.destroy());
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A request's whole body, refused (and the request destroyed) past `maxBytes`. */
export function readBody(req: http.IncomingMessage, maxBytes = MAX_REQUEST_BYTES): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        reject(new Error('request too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * The carrier's throughput limit: a token bucket holding one second of sends, refilled
 * continuously. `null` is no limit.
 */
export class TokenBucket {
  private tokens: number;
  private last = performance.now();
  constructor(private perSecond: number | null) {
    this.tokens = perSecond ?? 0;
  }
  setRate(perSecond: number | null): void {
    this.perSecond = perSecond;
    this.tokens = perSecond ?? 0;
    this.last = performance.now();
  }
  take(): boolean {
    if (this.perSecond === null) return true;
    const now = performance.now();
    this.tokens = Math.min(this.perSecond, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/**
 * The most arrivals seen in any one second (a sliding window, not calendar seconds): how a
 * simulator tells a client that kept to a carrier's rate from one that did not, whatever the
 * client's own pacing and however many processes share the limit.
 */
export class PerSecondPeak {
  private arrivals: number[] = [];
  private head = 0;
  peak = 0;

  /** One arrival at `now` (ms); returns how many arrived in the second up to it. */
  arrival(now: number): number {
    this.arrivals.push(now);
    while (this.arrivals[this.head]! <= now - 1000) this.head++;
    if (this.head > 4096) {
      this.arrivals = this.arrivals.slice(this.head);
      this.head = 0;
    }
    const inLastSecond = this.arrivals.length - this.head;
    this.peak = Math.max(this.peak, inLastSecond);
    return inLastSecond;
  }
}

/** Webhook deliveries the simulator owes: scheduled, awaited by `idle()`, dropped by `close()`. */
export class DeliveryQueue {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly running = new Set<Promise<void>>();
  private closed = false;

  /** Runs `work` after `delayMs`; its failure is the work's own business (it counts it). */
  schedule(delayMs: number, work: () => Promise<void>): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.run(work);
    }, delayMs);
    this.timers.add(timer);
  }

  run(work: () => Promise<void>): Promise<void> {
    const task = work()
      .catch(() => {})
      .finally(() => this.running.delete(task));
    this.running.add(task);
    return task;
  }

  /** Resolves once nothing is scheduled or running (work scheduled meanwhile is waited for too). */
  async idle(): Promise<void> {
    while (this.timers.size > 0 || this.running.size > 0) {
      if (this.running.size > 0) await Promise.all(this.running);
      else await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await Promise.all(this.running);
  }
}

/** POSTs a signed webhook, retrying like the carriers do (fewer times, sooner); says whether it was taken. */
export async function deliverWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  retries: number,
  retryDelayMs: number,
): Promise<{ ok: boolean; status: number }> {
  let status = 0;
  for (let attempt = 0; attempt <= retries; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, retryDelayMs * attempt));
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      await res.arrayBuffer();
      status = res.status;
      if (res.ok) return { ok: true, status };
      // A refusal of the request itself will not change on a retry.
      if (status >= 400 && status < 500 && status !== 408 && status !== 429) return { ok: false, status };
    } catch {
      status = 0;
    }
  }
  return { ok: false, status };
}

/** Who sent what to whom, the way every simulator counts it. */
export type DestinationCount = {
  /** API calls for this number (retries and refusals included). */
  received: number;
  /** Messages taken for delivery. */
  accepted: number;
  /** Calls repeating a message already taken for this number: the same message id, or the same content. */
  duplicates: number;
};

export type ControlApi = {
  counters(): unknown;
  reset(): void;
  setOptions(patch: unknown): void;
  inbound(body: unknown): Promise<void>;
  verifyWebhook(): Promise<{ status: number; body: string }>;
};

/** Serves `/__simulator/*`; undefined for any other path. */
export async function controlRoute(request: SimRequest, control: ControlApi): Promise<SimResponse | undefined> {
  if (!request.path.startsWith('/__simulator/')) return undefined;
  const route = `${request.method} ${request.path}`;
  try {
    const body = request.body.length > 0 ? JSON.parse(request.body.toString('utf8')) : {};
    switch (route) {
      case 'GET /__simulator/counters':
        return { status: 200, body: control.counters() as object };
      case 'POST /__simulator/reset':
        control.reset();
        return { status: 200, body: { reset: true } };
      case 'POST /__simulator/options':
        control.setOptions(body);
        return { status: 200, body: { updated: true } };
      case 'POST /__simulator/inbound':
        await control.inbound(body);
        return { status: 200, body: { sent: true } };
      case 'POST /__simulator/verify-webhook':
        return { status: 200, body: await control.verifyWebhook() };
      default:
        return { status: 404, body: { message: `no simulator control ${route}`, code: 'NOT_FOUND' } };
    }
  } catch (err) {
    const message = err instanceof z.ZodError ? z.prettifyError(err) : (err as Error).message;
    return { status: 400, body: { message, code: 'BAD_REQUEST' } };
  }
}

/** A stable number in [0, 1) for a phone number: the same number always gets the same fate. */
export function fractionOf(key: string): number {
  return crypto.createHash('sha256').update(key).digest().readUInt32BE(0) / 2 ** 32;
}

/**
 * Picks from weights by a fraction in [0, 1): every simulator's draw of a fate. The first entry
 * when none weighs anything; undefined only for an empty table.
 */
export function pickWeighted<K extends string>(weights: Record<K, number>, fraction: number): K;
export function pickWeighted<K extends string>(weights: Partial<Record<K, number>>, fraction: number): K | undefined;
export function pickWeighted<K extends string>(weights: Partial<Record<K, number>>, fraction: number): K | undefined {
  const entries = Object.entries(weights) as [K, number][];
  const total = entries.reduce((sum, [, w]) => sum + Math.max(0, w), 0);
  let point = fraction * total;
  for (const [key, weight] of entries) {
    point -= Math.max(0, weight);
    if (point < 0) return key;
  }
  return entries[0]?.[0];
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
