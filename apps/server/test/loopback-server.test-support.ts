/**
 * A stand-in HTTP peer on loopback (a carrier, a customer's endpoint): each request is handed
 * over with its whole body read, to be answered by the test.
 *
 *   const peer = await startLoopbackServer((request, body, response) => response.writeHead(204).end());
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type LoopbackServer = { url: string; close(): Promise<void> };

export async function startLoopbackServer(
  answer: (request: http.IncomingMessage, body: string, response: http.ServerResponse) => void,
): Promise<LoopbackServer> {
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => answer(request, body, response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
