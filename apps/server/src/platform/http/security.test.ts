import { GTM_ORIGIN } from '@ecoa/shared';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerSecurityHeaders } from './security.ts';

/** The CSP's directives by name, each with its sources. */
async function csp(options: Parameters<typeof registerSecurityHeaders>[1]): Promise<Map<string, string[]>> {
  const app = Fastify();
  await registerSecurityHeaders(app, options);
  app.get('/', async () => 'ok');
  const res = await app.inject({ method: 'GET', url: '/' });
  await app.close();
  const header = String(res.headers['content-security-policy']);
  return new Map(
    header.split(';').map((part) => {
      const [name = '', ...sources] = part.trim().split(/\s+/);
      return [name, sources];
    }),
  );
}

describe('the Content-Security-Policy and a tag manager', () => {
  it('without GTM_CONTAINER_ID, scripts and calls stay on our own origin', async () => {
    const policy = await csp({ publicUrl: 'https://app.ecoa.com.br' });
    expect(policy.get('script-src')).toEqual(["'self'"]);
    expect(policy.get('connect-src')).toEqual(["'self'"]);
    expect(policy.get('img-src')).toEqual(["'self'", 'data:', 'blob:', 'https://app.ecoa.com.br']);
  });

  it("with it, Google Tag Manager's host and no other for scripts, calls and images; the rest unchanged", async () => {
    const without = await csp({ publicUrl: 'https://app.ecoa.com.br' });
    const policy = await csp({ publicUrl: 'https://app.ecoa.com.br', gtmContainerId: 'GTM-ABC1234' });
    expect(policy.get('script-src')).toEqual(["'self'", GTM_ORIGIN]);
    expect(policy.get('connect-src')).toEqual(["'self'", GTM_ORIGIN]);
    expect(policy.get('img-src')).toEqual(["'self'", 'data:', 'blob:', 'https://app.ecoa.com.br', GTM_ORIGIN]);
    for (const [name, sources] of without) {
      if (!['script-src', 'connect-src', 'img-src'].includes(name)) expect(policy.get(name), name).toEqual(sources);
    }
    expect(policy.get('script-src')).not.toContain("'unsafe-inline'");
  });
});
