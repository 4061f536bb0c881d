/**
 * The developers' API: which routes an API key may call, with which scope. Every route listed in
 * SCOPED answers 401 without a token, 403 `API_KEY_SCOPE_MISSING` naming its scope to a key
 * without it (before the body is read), and passes the guard for a key with only that scope.
 * Every other guarded route refuses any key with 403 `API_KEY_NOT_ALLOWED`. A route guarded by
 * `requireScope` that is not listed here fails the test (and so does a listed one that is not).
 */
import { API_SCOPES, type ApiScope } from '@ecoa/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, setApiRate } from '../src/modules/api-keys/api-keys.test-support.ts';
import type { RunningServer } from '../src/server.ts';
import { isPublic, urlOf } from './access.routes.test-support.ts';
import { SCOPED } from './access.scoped.test-support.ts';
import { callAs, type RouteCall, registeredRoutes } from './access.test-support.ts';
import { signUpAndSignIn } from './factories.test-support.ts';
import { multipart } from './multipart.test-support.ts';
import { createTestServer, dbKind } from './server.test-support.ts';

let server: RunningServer;
let keys: { all: string; only: Record<ApiScope, string>; allBut: Record<ApiScope, string> };

beforeAll(async () => {
  server = await createTestServer({ work: false });
  const owner = await signUpAndSignIn(server);
  // Hundreds of calls with the same keys: a rate that never gets in the way here (api-keys.routes.test.ts tests it).
  await setApiRate(server, owner.user.id, 1000);
  const make = async (scopes: readonly ApiScope[]) => (await createApiKey(server, owner.token, scopes)).key;
  const only = {} as Record<ApiScope, string>;
  const allBut = {} as Record<ApiScope, string>;
  for (const scope of API_SCOPES) {
    only[scope] = await make([scope]);
    allBut[scope] = await make(API_SCOPES.filter((s) => s !== scope));
  }
  keys = { all: await make(API_SCOPES), only, allBut };
});
afterAll(async () => {
  await server?.close();
});

const describeAnswer = (route: string, who: string, res: { statusCode: number; body: string }) =>
  `${route} as ${who} → ${res.statusCode} ${res.body.slice(0, 160)}`;
const codeOf = (res: { headers: Record<string, unknown>; json(): unknown }) =>
  String(res.headers['content-type'] ?? '').includes('json') ? (res.json() as { code?: string }).code : undefined;
/** The guard let the key through (whatever the handler then answered for a sample id or an empty body). */
const passedGuard = (res: { statusCode: number; headers: Record<string, unknown>; json(): unknown }) =>
  res.statusCode !== 401 && !['API_KEY_SCOPE_MISSING', 'API_KEY_NOT_ALLOWED', 'FORBIDDEN'].includes(codeOf(res) ?? '');

describe(`API key scopes on every route (${dbKind})`, () => {
  it('a key passes only the listed routes; every other guarded route refuses it with API_KEY_NOT_ALLOWED', async () => {
    const routes = registeredRoutes(server);
    for (const route of Object.keys(SCOPED)) expect(routes, 'a scoped route that no longer exists').toContain(route);
    const failures: string[] = [];
    for (const route of routes.filter((r) => !isPublic(r))) {
      const [method, path] = route.split(' ') as [RouteCall['method'], string];
      const res = await callAs(server, { method, url: urlOf(path) }, keys.all);
      if (SCOPED[route]) {
        if (!passedGuard(res) || res.statusCode >= 500)
          failures.push(describeAnswer(route, 'a key with every scope', res));
      } else if (res.statusCode !== 403 || codeOf(res) !== 'API_KEY_NOT_ALLOWED') {
        failures.push(`${describeAnswer(route, 'a key', res)} (a route for keys must be listed in SCOPED)`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('each scoped route: 401 without a token, 403 naming its scope without it (body unread), passes with it alone', async () => {
    const upload = multipart([{ name: 'file', filename: 'a.csv', content: Buffer.alloc(1024, 'a') }]);
    const failures: string[] = [];
    for (const [route, scope] of Object.entries(SCOPED)) {
      const [method, path] = route.split(' ') as [RouteCall['method'], string];
      const url = urlOf(path);
      const anonymous = await callAs(server, { method, url });
      if (anonymous.statusCode !== 401) failures.push(describeAnswer(route, 'anonymous', anonymous));
      const bodies: RouteCall[] =
        method === 'GET'
          ? [{ method, url }]
          : [
              { method, url },
              { method, url, payload: '{"broken": ', headers: { 'content-type': 'application/json' } },
              { method, url, payload: upload.payload, headers: upload.headers },
            ];
      for (const call of bodies) {
        const refused = await callAs(server, call, keys.allBut[scope]);
        const body = codeOf(refused) ? (refused.json() as { code: string; details?: unknown }) : undefined;
        if (
          refused.statusCode !== 403 ||
          body?.code !== 'API_KEY_SCOPE_MISSING' ||
          (body.details as { scope?: string })?.scope !== scope
        ) {
          failures.push(describeAnswer(route, `a key without ${scope}`, refused));
        }
      }
      const allowed = await callAs(server, { method, url }, keys.only[scope]);
      if (!passedGuard(allowed) || allowed.statusCode >= 500) {
        failures.push(describeAnswer(route, `a key with only ${scope}`, allowed));
      }
    }
    expect(failures).toEqual([]);
  });
});
