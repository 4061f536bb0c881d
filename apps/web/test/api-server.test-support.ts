import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type ApiServer = { base: string; requests: string[]; close(): Promise<void> };

/**
 * A real local HTTP server answering the API paths a test gives (JSON bodies, 404 otherwise),
 * and `fetch` pointed at it: the app's own API client sends its same-origin URLs (`/api/…`)
 * there, so components are tested through the real request and response, not a mock of our code.
 */
export async function serveApi(routes: Record<string, unknown>): Promise<ApiServer> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const body = routes[(req.url ?? '').split('?')[0]!];
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body ?? { message: 'Rota não encontrada', code: 'NOT_FOUND' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const realFetch = globalThis.fetch;
  globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) =>
    realFetch(new URL(input instanceof Request ? input.url : String(input), base), init)) as typeof fetch;
  return {
    base,
    requests,
    close: async () => {
      globalThis.fetch = realFetch;
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
