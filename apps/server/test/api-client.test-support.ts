/**
 * The public API's tests call it the way a customer does: through the typed client
 * (packages/api-client, generated from the published OpenAPI document) over real HTTP, so a route
 * whose document says something else fails to compile or to answer as the test expects.
 *
 *   const ecoa = apiClient(server, key);
 *   const res = await answered(ecoa.POST('/api/v1/messages', { body }));
 *   expect(res.statusCode, res.body).toBe(202);
 *   res.data!.id;
 */
import { createEcoaClient, type EcoaClient } from '@ecoa/api-client';
import type { RunningServer } from '../src/server.ts';

/** The typed client as the holder of `token` (an API key or a session; none: anonymous), to `server`, which must listen. */
export function apiClient(server: RunningServer, token: string | undefined): EcoaClient {
  const address = server.app.server.address();
  if (!address || typeof address === 'string') {
    throw new Error(
      'the typed client needs a listening server: createTestServer({ listen: true, config: await listeningTestConfig() })',
    );
  }
  return createEcoaClient({ baseUrl: `http://127.0.0.1:${address.port}`, apiKey: token });
}

/** A client answer with its status and body text beside `data`/`error`, for assertions and their messages. */
export async function answered<T extends { response: Response; data?: unknown; error?: unknown }>(
  call: Promise<T>,
): Promise<T & { statusCode: number; body: string }> {
  const res = await call;
  return { ...res, statusCode: res.response.status, body: JSON.stringify(res.data ?? res.error ?? null) };
}
