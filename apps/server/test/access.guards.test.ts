/**
 * Every route is either listed here as public or refuses a caller without a session with 401
 * before anything of the request is read: a malformed JSON body or a multipart upload gets the
 * same 401 `UNAUTHORIZED` as an empty request (the guards are `onRequest` hooks). A new route
 * that is neither guarded nor listed fails the test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/server.ts';
import { isPublic, PUBLIC, urlOf } from './access.routes.test-support.ts';
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
