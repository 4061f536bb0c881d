/**
 * Access-control assertions, cheap enough to run for every route.
 *
 *   await expectAdminOnly(server, [
 *     { method: 'GET', url: `/api/v1/admin/users/${id}` },
 *     { method: 'PATCH', url: `/api/v1/admin/users/${id}`, payload: { active: true } },
 *   ]);
 *   await expectOwnerOnly(server, { owner: a.token, stranger: b.token, secrets: [list.name] }, [
 *     { method: 'GET', url: `/api/v1/lists/${list.id}` },
 *   ]);
 *
 * Each call goes through the real guard and handler (`app.inject`); a failure names the route,
 * the caller and the answer.
 */
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { RunningServer } from '../src/server.ts';
import { makeAdmin, signUpAndSignIn } from './factories.test-support.ts';
import { injectAs } from './http.test-support.ts';

export type RouteCall = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  /** A JSON body (or a prepared multipart body with its headers). */
  payload?: unknown;
  headers?: Record<string, string>;
};

export function callAs(server: RunningServer, route: RouteCall, token?: string): Promise<LightMyRequestResponse> {
  return injectAs(server, token, {
    method: route.method,
    url: route.url,
    ...(route.payload !== undefined ? { payload: route.payload as InjectOptions['payload'] } : {}),
    ...(route.headers ? { headers: route.headers } : {}),
  });
}

const label = (route: RouteCall, who: string, res: LightMyRequestResponse) =>
  `${route.method} ${route.url} as ${who} → ${res.statusCode} ${res.body.slice(0, 300)}`;

/** The refusal is the one error format and nothing else: no data slips out with it. */
function expectBareError(res: LightMyRequestResponse, code: string, context: string) {
  const body = res.json() as Record<string, unknown>;
  expect(body.code, context).toBe(code);
  expect(Object.keys(body).sort(), context).toEqual(['code', 'message']);
}

/** A signed-in regular user and a signed-in administrator, for `expectAdminOnly`. */
export async function userAndAdmin(server: RunningServer): Promise<{ userToken: string; adminToken: string }> {
  const [user, admin] = [await signUpAndSignIn(server), await signUpAndSignIn(server)];
  await makeAdmin(server, admin.user.id);
  return { userToken: user.token, adminToken: admin.token };
}

/**
 * Every route answers 401 without a token, 403 to a regular user (both before the body is read,
 * so even a bad body is refused the same way), and neither to an administrator.
 */
export async function expectAdminOnly(
  server: RunningServer,
  routes: RouteCall[],
  tokens?: { userToken: string; adminToken: string },
): Promise<void> {
  const { userToken, adminToken } = tokens ?? (await userAndAdmin(server));
  for (const route of routes) {
    const anonymous = await callAs(server, route);
    expect(anonymous.statusCode, label(route, 'anonymous', anonymous)).toBe(401);
    expectBareError(anonymous, 'UNAUTHORIZED', label(route, 'anonymous', anonymous));

    const garbage = await callAs(server, route, 'not-a-real-session-token-at-all');
    expect(garbage.statusCode, label(route, 'an unknown token', garbage)).toBe(401);

    const user = await callAs(server, route, userToken);
    expect(user.statusCode, label(route, 'a regular user', user)).toBe(403);
    expectBareError(user, 'FORBIDDEN', label(route, 'a regular user', user));

    const admin = await callAs(server, route, adminToken);
    expect([401, 403], label(route, 'an administrator', admin)).not.toContain(admin.statusCode);
    expect(admin.statusCode, label(route, 'an administrator', admin)).toBeLessThan(500);
  }
}

/**
 * A user's resource is reachable by its owner (2xx) and by no one else: another signed-in user
 * gets 404 or 403 with the bare error format, and no `secrets` (names, phones, ids of the data)
 * appear in that answer. Without a token the answer is 401.
 *
 * A refusal's status code alone does not show a write was refused: a handler that writes and
 * then answers 404 would pass. So for writes `state` reads the owner's data (rows of the real
 * database, not an API answer), and it must read the same before and after the stranger's and
 * the anonymous call. Give writes bodies that differ from the current values, or a write that
 * went through would not change anything to see.
 */
export async function expectOwnerOnly(
  server: RunningServer,
  who: { owner: string; stranger: string; secrets?: string[]; state?: () => Promise<unknown> },
  routes: RouteCall[],
): Promise<void> {
  for (const route of routes) {
    const writes = route.method !== 'GET';
    if (writes && !who.state) throw new Error(`expectOwnerOnly: ${route.method} ${route.url} needs a state to compare`);
    const before = writes ? await who.state!() : undefined;

    const stranger = await callAs(server, route, who.stranger);
    const context = label(route, 'another user', stranger);
    expect([403, 404], context).toContain(stranger.statusCode);
    expectBareError(stranger, stranger.statusCode === 403 ? 'FORBIDDEN' : (stranger.json().code as string), context);
    for (const secret of who.secrets ?? []) expect(stranger.body, context).not.toContain(secret);
    if (writes) expect(await who.state!(), `${context}: the owner's data changed`).toEqual(before);

    const anonymous = await callAs(server, route);
    expect(anonymous.statusCode, label(route, 'anonymous', anonymous)).toBe(401);
    if (writes) expect(await who.state!(), `${route.method} ${route.url} as anonymous changed data`).toEqual(before);

    const owner = await callAs(server, route, who.owner);
    expect(owner.statusCode, label(route, 'the owner', owner)).toBeLessThan(300);
  }
}

/** The rows `sql` selects, as the database has them now: a `state` for `expectOwnerOnly`. */
export function rowsOf(server: RunningServer, sql: string, params: unknown[]): () => Promise<unknown[]> {
  return async () => (await server.db.executeSql(sql, params)).rows;
}

/** Every registered `METHOD /path` (HEAD left out), read from Fastify's route tree (4 columns a level). */
export function registeredRoutes(server: RunningServer): string[] {
  const routes: string[] = [];
  const parents: string[] = [];
  for (const line of server.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│├└─\s]*)(\S+) \(([^)]+)\)$/.exec(line);
    if (!match) continue;
    const depth = Math.round(match[1]!.length / 4) - 1;
    parents.length = depth;
    const path = `${parents.join('')}${match[2]}`;
    parents.push(match[2]!);
    for (const method of match[3]!.split(', ')) if (method !== 'HEAD') routes.push(`${method} ${path}`);
  }
  return routes;
}
