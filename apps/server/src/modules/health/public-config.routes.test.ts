import { PUBLIC_CONFIG_PATH, publicConfigSchema } from '@ecoa/shared';
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
    } finally {
      await server.close();
    }
  }, 60_000);
});
