import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertPublicUrl, OutboundRefused, postJsonOutbound } from './outbound.ts';

describe('outbound calls to customer URLs', () => {
  let server: http.Server;
  let base: string;
  const received: unknown[] = [];
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
});
