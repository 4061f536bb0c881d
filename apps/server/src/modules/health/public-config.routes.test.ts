import { GTM_ORIGIN, PUBLIC_CONFIG_PATH, publicConfigSchema } from '@ecoa/shared';
import { describe, expect, it } from 'vitest';
import { createTestServer, dbKind, testConfig } from '../../../test/server.test-support.ts';

describe(`GET ${PUBLIC_CONFIG_PATH} (${dbKind})`, () => {
  it('serves SUPPORT_WHATSAPP as the server was started with it, to anyone, in the shared shape', async () => {
    const server = await createTestServer({ config: testConfig({ SUPPORT_WHATSAPP: '5521987654321' }) });
    try {
      const res = await server.app.inject({ method: 'GET', url: PUBLIC_CONFIG_PATH });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ supportWhatsapp: '5521987654321' });
      expect(publicConfigSchema.parse(res.json())).toEqual({ supportWhatsapp: '5521987654321' });
      expect(res.headers['cache-control']).toBe('public, max-age=300');
      // No tag manager: the page may load nothing from Google's host.
      expect(String(res.headers['content-security-policy'])).not.toContain(GTM_ORIGIN);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('serves GTM_CONTAINER_ID when set, and the CSP of every answer allows exactly its host', async () => {
    const server = await createTestServer({ config: testConfig({ GTM_CONTAINER_ID: 'GTM-ABC1234' }) });
    try {
      const res = await server.app.inject({ method: 'GET', url: PUBLIC_CONFIG_PATH });
      expect(res.statusCode, res.body).toBe(200);
      expect(publicConfigSchema.parse(res.json())).toEqual({
        supportWhatsapp: '5511999999999',
        gtmContainerId: 'GTM-ABC1234',
      });
      const page = await server.app.inject({ method: 'GET', url: '/' });
      const csp = String(page.headers['content-security-policy']);
      expect(csp).toContain(`script-src 'self' ${GTM_ORIGIN};`);
      expect(csp).toContain(`connect-src 'self' ${GTM_ORIGIN};`);
      expect(csp).toMatch(new RegExp(`img-src [^;]* ${GTM_ORIGIN.replaceAll('.', '\\.')};`));
    } finally {
      await server.close();
    }
  }, 60_000);
});
