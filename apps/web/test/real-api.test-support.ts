import { expect, inject, vi } from 'vitest';
import { sessionToken } from '../src/platform/api';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The real Ecoa server started for the web tests (apps/server/test/web-api-server.ts). */
    webApi: {
      url: string;
      adminToken: string;
      adminId: string;
      userToken: string;
      userId: string;
      userEmail: string;
      /**
       * Users no other test touches, for tests that assert exact balances while other files run
       * in parallel: [0] TransferForm.test, [1] money.test, [2] PaymentResult.test, [3] refreshes.test,
       * [4] AdminUserCredits.test.
       */
      spareUsers: { token: string; id: string }[];
    };
  }
}

/** The real server the web tests talk to, and the accounts signed in on it. */
export const realApi = () => inject('webApi');

/**
 * Points the app's real API client at the real server, signed in with `token`. The client asks
 * for relative paths (`/api/…`), which a browser resolves against its page's origin: here that
 * origin is the server's. Every call reaches the server, except the ones `fault` answers: a
 * failure the shared server cannot be put in (a card processor down), injected at the network as
 * a proxy would, the real client reading it.
 */
export function useRealApi(
  token: string,
  fault?: (path: string, init: RequestInit | undefined) => Response | Promise<Response> | undefined,
): void {
  const { url } = realApi();
  const nodeFetch = globalThis.fetch;
  vi.stubGlobal('fetch', async (input: string | URL | Request, init?: RequestInit) => {
    const relative = typeof input === 'string' && input.startsWith('/');
    const injected = relative ? fault?.(input, init) : undefined;
    if (injected) return injected;
    const target = relative ? `${url}${input}` : input;
    // jsdom's AbortSignal is not the one Node's fetch accepts: follow it with Node's own.
    const signal = init?.signal;
    if (!signal) return nodeFetch(target, init);
    const follower = new globalThis.AbortController();
    if (signal.aborted) follower.abort();
    else signal.addEventListener('abort', () => follower.abort());
    return nodeFetch(target, { ...init, signal: follower.signal });
  });
  sessionToken.set(token);
}

/** A JSON answer, for `useRealApi`'s `fault`. */
export const jsonAnswer = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** Calls the real server directly (to set up or check what a test's screen did). */
export async function serverCall<T = unknown>(
  token: string | null,
  method: 'GET' | 'POST' | 'PATCH',
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${realApi().url}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as T };
}

/** A draft SMS campaign of the tests' user (or `token`'s) on the real server, with `fields` beside its name: its id. */
export async function draftCampaignOnServer(
  name: string,
  fields: Record<string, unknown> = {},
  token = realApi().userToken,
): Promise<string> {
  const created = await serverCall<{ id: string }>(token, 'POST', '/api/v1/campaigns', {
    name,
    channel: 'sms_short',
    ...fields,
  });
  expect(created.status).toBe(201);
  return created.body.id;
}
