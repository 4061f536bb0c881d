import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.ts';
import {
  assertPublicUrl,
  customerUrlPoster,
  OutboundRefused,
  pinnedLookup,
  postJsonOutbound,
  type ResolvedAddress,
  type ResolveHost,
} from './outbound.ts';

/** A resolver that gives each answer in turn (the last one again after that), counting the questions. */
function dnsAnswering(...answers: string[][]): ResolveHost & { calls: number } {
  const resolve = Object.assign(
    async (_host: string): Promise<ResolvedAddress[]> => {
      const answer = answers[Math.min(resolve.calls, answers.length - 1)]!;
      resolve.calls++;
      return answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    },
    { calls: 0 },
  );
  return resolve;
}

describe('outbound calls to customer URLs', () => {
  let server: http.Server;
  let base: string;
  const received: unknown[] = [];
  const heads: http.IncomingHttpHeaders[] = [];
  const methods: string[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        if (req.url === '/redirect') {
          res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end();
          return;
        }
        received.push(JSON.parse(body));
        heads.push(req.headers);
        methods.push(req.method ?? '');
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('refuses this machine, private networks and cloud metadata unless private addresses are allowed', async () => {
    for (const url of [
      'http://127.0.0.1:5432/',
      'http://localhost/',
      'http://10.1.2.3/x',
      'http://192.168.0.10/',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://0.0.0.0/',
    ]) {
      await expect(assertPublicUrl(url, { allowPrivate: false }), url).rejects.toBeInstanceOf(OutboundRefused);
    }
    await expect(assertPublicUrl('ftp://example.com/', { allowPrivate: true })).rejects.toBeInstanceOf(OutboundRefused);
    await expect(assertPublicUrl('http://8.8.8.8/hook', { allowPrivate: false })).resolves.toBeUndefined();
    await expect(assertPublicUrl(`${base}/hook`, { allowPrivate: true })).resolves.toBeUndefined();
  });

  it('posts JSON, and never follows a redirect', async () => {
    expect(await postJsonOutbound(`${base}/hook`, { digit: '1' }, { allowPrivate: true })).toEqual({ status: 204 });
    expect(received).toEqual([{ digit: '1' }]);
    expect(await postJsonOutbound(`${base}/redirect`, { digit: '2' }, { allowPrivate: true })).toEqual({ status: 302 });
  });

  it('says what it sends: a POST of JSON with its length, under our own user agent', async () => {
    await postJsonOutbound(`${base}/hook`, { digit: '7', text: 'ação' }, { allowPrivate: true });
    expect(methods.at(-1)).toBe('POST');
    expect(heads.at(-1)).toMatchObject({
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(JSON.stringify({ digit: '7', text: 'ação' }))),
      'user-agent': 'Ecoa/1 (+integration)',
    });
  });

  it('speaks TLS to an https URL (a plain HTTP server answering it is a TLS failure, not a plain request)', async () => {
    const port = new URL(base).port;
    const before = received.length;
    const failure = await postJsonOutbound(
      `https://127.0.0.1:${port}/hook`,
      { digit: '8' },
      { allowPrivate: true },
    ).then(
      () => undefined,
      (err: NodeJS.ErrnoException) => err,
    );
    expect(failure?.code).toBe('EPROTO');
    expect(received.length).toBe(before);
    await expect(assertPublicUrl('https://8.8.8.8/hook', { allowPrivate: false })).resolves.toBeUndefined();
  });

  it('names why it refused', async () => {
    const refusal = (url: string, resolve?: ResolveHost) =>
      assertPublicUrl(url, { allowPrivate: false, resolve }).then(
        () => undefined,
        (err: Error) => err,
      );
    const ftp = await refusal('ftp://example.com/');
    expect(ftp).toBeInstanceOf(OutboundRefused);
    expect(ftp?.name).toBe('OutboundRefused');
    expect(ftp?.message).toBe('only http(s) URLs');
    expect((await refusal('http://nowhere.example/', dnsAnswering([])))?.message).toBe(
      'nowhere.example has no address',
    );
    expect((await refusal('http://10.0.0.1/'))?.message).toBe('10.0.0.1 is a private or local address');
  });

  it('the pinned lookup answers the checked address, whether one or all are asked for', () => {
    const lookup = pinnedLookup({ address: '203.0.113.9', family: 4 });
    const answers: unknown[][] = [];
    lookup('anything.example', { all: true }, (...args: unknown[]) => answers.push(args));
    lookup('anything.example', { all: false }, (...args: unknown[]) => answers.push(args));
    expect(answers).toEqual([
      [null, [{ address: '203.0.113.9', family: 4 }]],
      [null, '203.0.113.9', 4],
    ]);
  });

  it('resolves the host once and connects to the address it checked (DNS rebinding)', async () => {
    // A name that says "public" to the check and "this machine" to whoever asks next.
    const port = new URL(base).port;
    const rebinding = dnsAnswering(['203.0.113.7'], ['127.0.0.1']);
    const before = received.length;
    await expect(
      postJsonOutbound(
        `http://hook.example:${port}/hook`,
        { digit: '3' },
        {
          allowPrivate: false,
          timeoutMs: 300,
          resolve: rebinding,
        },
      ),
    ).rejects.toThrow();
    expect(rebinding.calls).toBe(1);
    expect(received.length).toBe(before);

    // Where private addresses are allowed (a test, a local trial), the connection still goes to the first answer.
    const moving = dnsAnswering(['127.0.0.1'], ['127.0.0.2']);
    const other = http.createServer((_req, res) => res.writeHead(500).end());
    await new Promise<void>((resolve) => other.listen(Number(port), '127.0.0.2', resolve));
    try {
      expect(
        await postJsonOutbound(
          `http://hook.example:${port}/hook`,
          { digit: '4' },
          { allowPrivate: true, resolve: moving },
        ),
      ).toEqual({ status: 204 });
      expect(moving.calls).toBe(1);
      expect(received.at(-1)).toEqual({ digit: '4' });
    } finally {
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
    // A name with a private address among its answers is refused whatever the order.
    await expect(
      assertPublicUrl('http://hook.example/', { allowPrivate: false, resolve: dnsAnswering(['8.8.8.8', '10.0.0.5']) }),
    ).rejects.toBeInstanceOf(OutboundRefused);
  });

  it('refuses IPv6 spellings of private IPv4 addresses (mapped, compatible, translated, NAT64, 6to4)', async () => {
    for (const host of [
      '[::ffff:127.0.0.1]',
      '[::ffff:7f00:1]',
      '[0:0:0:0:0:ffff:7f00:1]',
      '[::FFFF:10.0.0.1]',
      '[::127.0.0.1]',
      '[::7f00:1]',
      '[::a00:1]',
      '[0:0:0:0:0:0:a9fe:a9fe]',
      '[::ffff:0:7f00:1]',
      '[64:ff9b::127.0.0.1]',
      '[64:ff9b::7f00:1]',
      '[64:ff9b::a9fe:a9fe]',
      '[64:ff9b::c0a8:1]',
      '[64:ff9b:1::a00:1]',
      '[64:ff9b:1:ffff::8.8.8.8]',
      '[2002:7f00:1::1]',
      '[2001:0:4136:e378:8000:63bf:3fff:fdd2]',
      '[fec0::1]',
      '[fd00::1]',
    ]) {
      await expect(assertPublicUrl(`http://${host}/`, { allowPrivate: false }), host).rejects.toBeInstanceOf(
        OutboundRefused,
      );
    }
    // The same forms around a public IPv4 are public.
    for (const host of ['[::ffff:8.8.8.8]', '[64:ff9b::808:808]', '[2606:4700:4700::1111]']) {
      await expect(assertPublicUrl(`http://${host}/`, { allowPrivate: false }), host).resolves.toBeUndefined();
    }
    // A resolver's answer in those spellings is judged the same way.
    for (const address of ['::ffff:7f00:1', '64:ff9b::a00:1', '::127.0.0.1']) {
      await expect(
        assertPublicUrl('http://hook.example/', { allowPrivate: false, resolve: dnsAnswering([address]) }),
        address,
      ).rejects.toBeInstanceOf(OutboundRefused);
    }
  });

  it("a deployment's configuration cannot switch the guard off: only tests and a local trial reach private addresses", async () => {
    const hook = `${base}/hook`;
    const before = received.length;
    for (const env of [
      { NODE_ENV: 'production', PUBLIC_URL: 'https://ecoa.example.com' },
      { NODE_ENV: 'development', PUBLIC_URL: 'https://ecoa.example.com' },
      { PUBLIC_URL: 'https://10.0.0.8' },
    ]) {
      const config = loadConfig(env);
      expect(config.allowPrivateOutbound, JSON.stringify(env)).toBe(false);
      await expect(customerUrlPoster(config)(hook, { digit: '5' }), JSON.stringify(env)).rejects.toBeInstanceOf(
        OutboundRefused,
      );
    }
    expect(received.length).toBe(before);
    for (const env of [
      { NODE_ENV: 'production', PUBLIC_URL: 'http://localhost:3000' },
      { NODE_ENV: 'production', PUBLIC_URL: 'http://127.0.0.1:3000' },
      { NODE_ENV: 'test', PUBLIC_URL: 'https://ecoa.example.com' },
    ]) {
      expect(await customerUrlPoster(loadConfig(env))(hook, { digit: '6' }), JSON.stringify(env)).toEqual({
        status: 204,
      });
    }
    expect(received.length).toBe(before + 3);
  });
});
