import { describe, expect, it } from 'vitest';
import { assertPublicUrl, OutboundRefused } from '../http/outbound.ts';
import { loadConfig } from './config.ts';

/**
 * The SSRF guard on calls to customers' URLs (outbound.ts) is on in production: only a local
 * trial (PUBLIC_URL on this machine) or the test suite may call private addresses; a development
 * run on a public address may not.
 */
describe('private outbound addresses by configuration', () => {
  it('are refused in production on a public address', async () => {
    const config = loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'https://app.ecoa.com.br' });
    expect(config.allowPrivateOutbound).toBe(false);
    await expect(
      assertPublicUrl('http://127.0.0.1:8080/ura', { allowPrivate: config.allowPrivateOutbound }),
    ).rejects.toBeInstanceOf(OutboundRefused);
    await expect(
      assertPublicUrl('http://169.254.169.254/latest/meta-data', { allowPrivate: config.allowPrivateOutbound }),
    ).rejects.toThrow(/private or local address/);
  });

  it('are allowed for a local trial (PUBLIC_URL on this machine) and in tests, not in development on a public address', () => {
    expect(loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'http://localhost:3000' }).allowPrivateOutbound).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'http://127.0.0.1:3000' }).allowPrivateOutbound).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test', PUBLIC_URL: 'https://app.ecoa.com.br' }).allowPrivateOutbound).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development', PUBLIC_URL: 'https://app.ecoa.com.br' }).allowPrivateOutbound).toBe(
      false,
    );
  });
});
