import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Calls Ecoa makes to addresses a customer typed (a URA's integration URL): never to this
 * machine or its private network (SSRF), unless this is a local trial or a test; never following
 * redirects (a public address could bounce to a private one); always with a timeout and a cap on
 * what is read back.
 */
const PRIVATE = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  PRIVATE.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  PRIVATE.addSubnet(net, bits, 'ipv6');
}

export class OutboundRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutboundRefused';
  }
}

function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  // An IPv4-mapped IPv6 address is checked as the IPv4 it is.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return PRIVATE.check(mapped, 'ipv4');
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Throws OutboundRefused when `url` is not http(s) or resolves to a private address (and those are not allowed). */
export async function assertPublicUrl(url: string, options: { allowPrivate: boolean }): Promise<void> {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new OutboundRefused('only http(s) URLs');
  if (options.allowPrivate) return;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  if (addresses.length === 0 || addresses.some(isPrivateAddress)) {
    throw new OutboundRefused(`${parsed.hostname} is a private or local address`);
  }
}

/** POSTs JSON to a customer's URL: SSRF-checked, no redirects, a timeout; the answer's body is not read. */
export async function postJsonOutbound(
  url: string,
  body: unknown,
  options: { allowPrivate: boolean; timeoutMs?: number },
): Promise<{ status: number }> {
  await assertPublicUrl(url, options);
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'Ecoa/1 (+integration)' },
    body: JSON.stringify(body),
    redirect: 'manual',
    signal: AbortSignal.timeout(options.timeoutMs ?? 5000),
  });
  await res.body?.cancel();
  return { status: res.status };
}
