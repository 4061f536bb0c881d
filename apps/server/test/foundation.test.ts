import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../src/platform/db/migrate.ts';
import type { RunningServer } from '../src/server.ts';
import { createTestServer, dbKind } from './server.test-support.ts';

describe(`the HTTP foundation (${dbKind})`, () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers health once migrations ran and jobs started', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    const applied = await server.db.executeSql('select count(*)::int as n from drizzle.__drizzle_migrations');
    const files = fs.readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith('.sql'));
    expect((applied.rows[0] as { n: number }).n).toBe(files.length);
  });

  it('serves the SPA for client-side routes, so a reload keeps working', async () => {
    for (const url of ['/', '/campanhas', '/campanhas/criar-campanha', '/usuarios?page=2']) {
      const res = await server.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain('<div id="root">');
    }
  });

  it('serves built assets with long caching and 404s missing files', async () => {
    const asset = await server.app.inject({ method: 'GET', url: '/assets/app-1234.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    const missing = await server.app.inject({ method: 'GET', url: '/assets/gone-999.js' });
    expect(missing.statusCode).toBe(404);
  });

  it('answers unknown API paths with a JSON 404, never the SPA', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const res = await server.app.inject({ method, url: '/api/v1/nothing-here' });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toContain('application/json');
      const body = res.json();
      expect(body.code).toBe('NOT_FOUND');
      expect(typeof body.message).toBe('string');
    }
  });

  it('serves the three locale files and nothing else under /locales', async () => {
    for (const lng of ['pt', 'en', 'cn']) {
      const res = await server.app.inject({ method: 'GET', url: `/locales/${lng}.json` });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('application/json');
      expect(res.json().app.name).toBe('Ecoa');
    }
    expect((await server.app.inject({ method: 'GET', url: '/locales/xx.json' })).statusCode).toBe(404);
    expect((await server.app.inject({ method: 'GET', url: '/locales/..%2Fpackage.json' })).statusCode).toBe(404);
  });

  it('sends a strict Content-Security-Policy and other security headers', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).not.toMatch(/unsafe-eval/);
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('tags every response with a request id, honouring a sane incoming one', async () => {
    const own = await server.app.inject({ method: 'GET', url: '/api/health' });
    expect(own.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const given = await server.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'trace-abc-12345' },
    });
    expect(given.headers['x-request-id']).toBe('trace-abc-12345');
  });

  it('publishes the OpenAPI document and its UI at /api/docs', async () => {
    const doc = await server.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(doc.statusCode).toBe(200);
    expect(doc.json().openapi).toMatch(/^3\./);
    expect(Object.keys(doc.json().paths)).toContain('/api/health');
    const ui = await server.app.inject({ method: 'GET', url: '/api/docs' });
    expect([200, 302]).toContain(ui.statusCode);
  });

  it('answers malformed JSON with a 400 in the one error format', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/health',
      headers: { 'content-type': 'application/json' },
      payload: '{bad',
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.json()).toHaveProperty('code');
  });
});

describe('locale files', () => {
  it('have exactly the same keys in pt, en and cn, none empty', () => {
    const dir = path.resolve(import.meta.dirname, '../../web/public/locales');
    const flatten = (obj: unknown, prefix = ''): Record<string, unknown> =>
      Object.entries(obj as Record<string, unknown>).reduce<Record<string, unknown>>((acc, [k, v]) => {
        const key = prefix ? `${prefix}.${k}` : k;
        if (v && typeof v === 'object' && !Array.isArray(v)) Object.assign(acc, flatten(v, key));
        else acc[key] = v;
        return acc;
      }, {});
    const files = Object.fromEntries(
      ['pt', 'en', 'cn'].map((l) => [l, flatten(JSON.parse(fs.readFileSync(path.join(dir, `${l}.json`), 'utf8')))]),
    );
    const ptKeys = Object.keys(files.pt!).sort();
    expect(ptKeys.length).toBeGreaterThan(0);
    for (const lng of ['en', 'cn']) {
      const keys = Object.keys(files[lng]!).sort();
      expect(
        keys.filter((k) => !ptKeys.includes(k)),
        `${lng} has keys pt lacks`,
      ).toEqual([]);
      expect(
        ptKeys.filter((k) => !keys.includes(k)),
        `${lng} lacks keys`,
      ).toEqual([]);
    }
    for (const [lng, entries] of Object.entries(files)) {
      for (const [key, value] of Object.entries(entries)) {
        expect(typeof value === 'string' && value.trim().length > 0, `${lng}:${key} is empty`).toBe(true);
      }
    }
  });
});
