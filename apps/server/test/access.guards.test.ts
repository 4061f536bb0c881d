/**
 * Every route is either listed here as public or refuses a caller without a session with 401
 * before anything of the request is read: a malformed JSON body or a multipart upload gets the
 * same 401 `UNAUTHORIZED` as an empty request (the guards are `onRequest` hooks). A new route
 * that is neither guarded nor listed fails the test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/server.ts';
import { callAs, type RouteCall, registeredRoutes } from './access.test-support.ts';
import { multipart } from './multipart.test-support.ts';
import { createTestServer, dbKind } from './server.test-support.ts';

let server: RunningServer;

beforeAll(async () => {
  server = await createTestServer();
});
afterAll(async () => {
  await server?.close();
});

/** Answered without a session, on purpose: sign-in, public pages and files, carriers' callbacks. */
const PUBLIC = new Set([
  'GET *', // the web app
  'GET /locales/:lng',
  'GET /api/health',
  'GET /api/v1/public-config',
  'GET /metrics', // its own METRICS_TOKEN
  'POST /api/auth/request-code',
  'POST /api/auth/resend-code',
  'POST /api/auth/login',
  'POST /api/auth/logout', // ends the session its token names, if any
  'POST /api/user', // sign-up
  'GET /api/me', // checks the session itself, in the same statement that reads the account
  'GET /api/v1/avatars/:file', // by an unguessable name
  'GET /api/v1/audios/play/:token', // by a signed link, for the carrier
  'GET /l/:slug',
  'GET /api/webhooks/whatsapp/events',
  'POST /api/webhooks/whatsapp/events',
  'POST /api/webhooks/rcs/events',
  'POST /api/webhooks/voice/calls/:messageId/twiml',
  'POST /api/webhooks/voice/calls/:messageId/gather',
  'POST /api/webhooks/voice/calls/:messageId/status',
  'POST /api/webhooks/stripe',
  'GET /api/checkout/test/:paymentId',
  'POST /api/checkout/test/:paymentId/pay',
  'POST /api/checkout/test/:paymentId/cancel',
]);
const isPublic = (route: string) => PUBLIC.has(route) || route.startsWith('GET /api/docs');

const SAMPLE_ID = '00000000-0000-4000-8000-000000000000';

/** A callable URL for a route pattern: every parameter filled in with a well-formed id. */
function urlOf(path: string): string {
  return path.replace(/:[A-Za-z]+/g, SAMPLE_ID).replace(/\*$/, 'x');
}

describe(`guards on every route (${dbKind})`, () => {
  it('a route without a session answers 401 before its body is parsed or its upload read', async () => {
    const routes = registeredRoutes(server);
    expect(routes).toContain('POST /api/v1/audios'); // the route tree is read right
    for (const route of PUBLIC) expect(routes, 'a public route that no longer exists').toContain(route);
    const guarded = routes.filter((route) => !isPublic(route));
    expect(guarded.length).toBeGreaterThan(50);
    const upload = multipart([{ name: 'file', filename: 'a.csv', content: Buffer.alloc(64 * 1024, 'a') }]);
    const failures: string[] = [];
    for (const route of guarded) {
      const [method, path] = route.split(' ') as [RouteCall['method'], string];
      const url = urlOf(path);
      const calls: RouteCall[] =
        method === 'GET'
          ? [{ method, url }]
          : [
              { method, url },
              { method, url, payload: '{"broken": ', headers: { 'content-type': 'application/json' } },
              { method, url, payload: upload.payload, headers: upload.headers },
            ];
      for (const call of calls) {
        const res = await callAs(server, call);
        const body = res.headers['content-type']?.toString().includes('json') ? res.json() : {};
        if (res.statusCode !== 401 || body.code !== 'UNAUTHORIZED') {
          failures.push(
            `${route} (${call.headers?.['content-type'] ?? 'no body'}) → ${res.statusCode} ${res.body.slice(0, 120)}`,
          );
        }
      }
    }
    expect(failures).toEqual([]);
  });
});
