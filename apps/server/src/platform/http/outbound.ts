import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isPrivateAddress } from './private-address.ts';

/**
 * Calls Ecoa makes to addresses a customer typed (a URA's integration URL): never to this
 * machine or its private network (SSRF), unless this is a local trial or a test; never following
 * redirects (a public address could bounce to a private one); always with a timeout and a cap on
 * what is read back. The host is resolved once, and the connection goes to the address that was
 * checked: resolving again to connect would let a name answer a public address to the check and
 * a private one to the connection (DNS rebinding).
 */

export class OutboundRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutboundRefused';
  }
}

export type ResolvedAddress = { address: string; family: number };
/** Every address of a host name (the system resolver by default; tests answer as a hostile DNS would). */
export type ResolveHost = (hostname: string) => Promise<ResolvedAddress[]>;

// Every answer is checked, so their order only decides which public address is dialled.
// Stryker disable next-line BooleanLiteral: the order of the answers, all of them checked, changes no refusal
const systemResolve: ResolveHost = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export type OutboundOptions = { allowPrivate: boolean; timeoutMs?: number; resolve?: ResolveHost };

/**
 * The URL checked and its host resolved once: the address to connect to. Refused when it is not
 * http(s), or (unless private addresses are allowed) when any of the host's addresses is private.
 */
export async function resolvePublicUrl(
  url: string,
  options: Pick<OutboundOptions, 'allowPrivate' | 'resolve'>,
): Promise<{ url: URL; address: ResolvedAddress }> {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new OutboundRefused('only http(s) URLs');
  // WHATWG URL allows brackets only around a whole IPv6 host, so the anchors cannot change a result.
  // Stryker disable next-line Regex: equivalent for every host name a URL can hold
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  const family = isIP(host);
  const addresses = family ? [{ address: host, family }] : await (options.resolve ?? systemResolve)(host);
  if (addresses.length === 0) throw new OutboundRefused(`${parsed.hostname} has no address`);
  if (!options.allowPrivate && addresses.some((a) => isPrivateAddress(a.address))) {
    throw new OutboundRefused(`${parsed.hostname} is a private or local address`);
  }
  return { url: parsed, address: addresses[0]! };
}

/** Throws OutboundRefused when `url` is not http(s) or resolves to a private address (and those are not allowed). */
export async function assertPublicUrl(url: string, options: Pick<OutboundOptions, 'allowPrivate' | 'resolve'>) {
  await resolvePublicUrl(url, options);
}

/** A socket lookup that answers only the address already checked, whatever it is asked. */
export function pinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
}

/**
 * One POST of `payload` to the address `resolvePublicUrl` checked, answered by `onResponse`: a
 * socket of its own (a pooled one may have been opened to another address), connected to that
 * address; TLS still checks the certificate against the URL's host name.
 */
async function postPinned<T>(
  url: string,
  payload: string,
  options: OutboundOptions & { userAgent: string; headers?: Record<string, string>; timeoutMs: number },
  onResponse: (res: http.IncomingMessage, resolve: (answer: T) => void) => void,
): Promise<T> {
  const { url: target, address } = await resolvePublicUrl(url, options);
  const request = target.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const req = request(
      target,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          'user-agent': options.userAgent,
          ...options.headers,
        },
        agent: false,
        lookup: pinnedLookup(address),
        signal: AbortSignal.timeout(options.timeoutMs),
      },
      (res) => onResponse(res, resolve),
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** POSTs JSON to a customer's URL: SSRF-checked, to the checked address, no redirects, a timeout; the answer's body is not read. */
export async function postJsonOutbound(
  url: string,
  body: unknown,
  options: OutboundOptions,
): Promise<{ status: number }> {
  const posting = { ...options, userAgent: 'Ecoa/1 (+integration)', timeoutMs: options.timeoutMs ?? 5000 };
  return postPinned(url, JSON.stringify(body), posting, (res, resolve) => {
    res.resume();
    // Stryker disable next-line StringLiteral: destroy() without an error emits none; this guards a late socket error only
    res.on('error', () => {});
    resolve({ status: res.statusCode ?? 0 });
    res.destroy();
  });
}

/** The poster for customers' URLs under this deployment's config (private addresses only where config allows). */
export function customerUrlPoster(config: { allowPrivateOutbound: boolean }, resolve?: ResolveHost) {
  return (url: string, body: unknown) =>
    postJsonOutbound(url, body, { allowPrivate: config.allowPrivateOutbound, resolve });
}

export type OutboundAnswer = {
  status: number /** The answer's first `readLimit` bytes, as text. */;
  bodyStart: string;
};

/**
 * POSTs a prepared body with extra headers (signed webhooks) under the same rules as
 * `postJsonOutbound`, and reads back at most `readLimit` bytes of the answer (the delivery log);
 * the timeout covers the whole exchange.
 */
export async function postOutbound(
  url: string,
  payload: string,
  options: OutboundOptions & { headers?: Record<string, string>; readLimit?: number },
): Promise<OutboundAnswer> {
  const limit = options.readLimit ?? 1024;
  const posting = { ...options, userAgent: 'Ecoa/1 (+webhooks)', timeoutMs: options.timeoutMs ?? 10_000 };
  return postPinned(url, payload, posting, (res, resolve) => {
    const chunks: Buffer[] = [];
    let read = 0;
    const done = () => {
      resolve({ status: res.statusCode ?? 0, bodyStart: Buffer.concat(chunks).subarray(0, limit).toString('utf8') });
      res.destroy();
    };
    res.on('data', (chunk: Buffer) => {
      if (read < limit) chunks.push(chunk);
      read += chunk.length;
      if (read >= limit) done();
    });
    res.on('end', done);
    res.on('error', () => done());
  });
}
