import { BlockList, isIP } from 'node:net';

/**
 * Whether an IP address is this machine, its private network or otherwise not the public
 * internet (the SSRF guard of outbound.ts). IPv6 forms that carry an IPv4 address are judged by
 * the IPv4 they carry, in every spelling (`::ffff:127.0.0.1`, `::ffff:7f00:1`, `::127.0.0.1`,
 * `64:ff9b::10.0.0.1`…): a NAT64 gateway or a dual stack takes them to that IPv4.
 */
const PRIVATE_V4 = new BlockList();
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
  PRIVATE_V4.addSubnet(net, bits, 'ipv4');
}
const PRIVATE_V6 = new BlockList();
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  // NAT64 for local use (RFC 8215): where the IPv4 sits depends on the operator's prefix length.
  ['64:ff9b:1::', 48],
  ['100::', 64],
  // Teredo: the client's IPv4 is obfuscated inside; never a customer's server.
  ['2001::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  PRIVATE_V6.addSubnet(net, bits, 'ipv6');
}

/** The 8 groups of an IPv6 address (a trailing dotted IPv4 counts as two), or undefined. */
function ipv6Groups(address: string): number[] | undefined {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (dotted) {
    const [a, b, c, d] = dotted.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -dotted.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => Number.parseInt(g, 16)) : []);
  const head = part(halves[0]);
  const tail = part(halves[1]);
  const groups = halves.length === 2 ? [...head, ...Array(8 - head.length - tail.length).fill(0), ...tail] : head;
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}

const v4Of = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;

/** The IPv4 an IPv6 address stands for (mapped, compatible, SIIT, NAT64 /96, 6to4), if any. */
function embeddedIpv4(groups: number[]): string | undefined {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [number, number, number, number, number, number, number, number];
  const zeroTo = (n: number) => groups.slice(0, n).every((g) => g === 0);
  // ::a.b.c.d (compatible), ::ffff:a.b.c.d (mapped), ::ffff:0:a.b.c.d (SIIT translated).
  if (zeroTo(5) && (g5 === 0 || g5 === 0xffff)) return v4Of(g6, g7);
  if (zeroTo(4) && g4 === 0xffff && g5 === 0) return v4Of(g6, g7);
  // 64:ff9b::a.b.c.d, the well-known NAT64 prefix (RFC 6052).
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return v4Of(g6, g7);
  // 2002:AABB:CCDD::/48, 6to4: the IPv4 of the relay it goes through.
  if (g0 === 0x2002) return v4Of(g1, g2);
  return undefined;
}

/** Whether `address` (an IP in any spelling; anything else counts as private) is not a public address. */
export function isPrivateAddress(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(ip);
  if (family === 4) return PRIVATE_V4.check(ip, 'ipv4');
  if (family !== 6) return true;
  const groups = ipv6Groups(ip);
  if (!groups) return true;
  const v4 = embeddedIpv4(groups);
  if (v4 !== undefined) return PRIVATE_V4.check(v4, 'ipv4');
  return PRIVATE_V6.check(ip, 'ipv6');
}
