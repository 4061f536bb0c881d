/**
 * The test factories (`signUpAndSignIn`, `importList`…) drive a server through `app.inject`;
 * this gives them a server running in another process, over HTTP. The client address the
 * factories vary (per-IP limits) travels as X-Forwarded-For, trusted from loopback.
 */
import type { RunningServer } from '../src/server.ts';

type InjectOptions = {
  method: string;
  url: string;
  payload?: unknown;
  headers?: Record<string, string>;
  remoteAddress?: string;
};

export function remoteServer(baseUrl: string, dataDir: string): RunningServer {
  const inject = async (options: InjectOptions) => {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.remoteAddress) headers['x-forwarded-for'] = options.remoteAddress;
    let body: Uint8Array | string | undefined;
    if (Buffer.isBuffer(options.payload)) body = new Uint8Array(options.payload);
    else if (options.payload !== undefined) {
      body = JSON.stringify(options.payload);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(`${baseUrl}${options.url}`, { method: options.method, headers, body });
    const text = await res.text();
    return { statusCode: res.status, body: text, json: () => JSON.parse(text) };
  };
  return { app: { inject }, config: { dataDir } } as unknown as RunningServer;
}
