/**
 * For tests: a real Fastify server on loopback that mounts a provider's webhook routes the way
 * the channels module does (under `/api/webhooks/<provider>`, the raw body, the full public URL),
 * so a simulator can call the adapter back over real HTTP. It also serves test audio files.
 * The server listens before the provider is made: the provider needs the public URL.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { registerErrorHandling } from '../../../../platform/http/error-handler.ts';
import type { WebhookRequest, WebhookRoute } from '../../provider.ts';

type MountedProvider = { name: string; webhooks: readonly WebhookRoute[] };

export type WebhookTestApp = {
  publicUrl: string;
  /** Answers with another provider from now on (a restart: same configuration, fresh process). */
  replace(provider: MountedProvider): void;
  close(): Promise<void>;
};

/** A few bytes that start like an MP3 frame: enough for a carrier that only fetches them. */
export const TEST_AUDIO = Buffer.from([0xff, 0xfb, 0x90, 0x64, ...Array.from({ length: 412 }, (_, i) => i % 256)]);

export async function startWebhookTestApp(mount: (publicUrl: string) => MountedProvider): Promise<WebhookTestApp> {
  const server = http.createServer();
  const app = Fastify({
    logger: false,
    serverFactory: (handler) => {
      server.on('request', handler);
      return server;
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const publicUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = mount(publicUrl);
  let current = provider;

  // Refusals are answered by the app's one error handler, as in the server.
  registerErrorHandling(app);
  // Carriers' bodies are kept as bytes: signatures are computed over them.
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  for (const route of provider.webhooks) {
    app.route({
      method: route.method,
      url: `/api/webhooks/${provider.name}${route.path}`,
      handler: async (request, reply) => {
        const webhookRequest: WebhookRequest = {
          method: route.method,
          url: publicUrl + request.url,
          headers: Object.fromEntries(
            Object.entries(request.headers).map(([name, value]) => [name, Array.isArray(value) ? value[0] : value]),
          ),
          query: Object.fromEntries(
            Object.entries(request.query as Record<string, string | string[]>).map(([name, value]) => [
              name,
              Array.isArray(value) ? value[0]! : value,
            ]),
          ),
          rawBody: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
        };
        const handler = current.webhooks.find((r) => r.method === route.method && r.path === route.path) ?? route;
        const answer = await handler.handle(webhookRequest, request.params as Record<string, string>);
        reply.code(answer.status);
        if (answer.contentType) reply.type(answer.contentType);
        return reply.send(answer.body ?? '');
      },
    });
  }
  // Audio as the audios module will serve it, and two broken links.
  app.get('/audios/:name', async (request, reply) => {
    const { name } = request.params as { name: string };
    if (name === 'greeting.mp3') return reply.type('audio/mpeg').send(TEST_AUDIO);
    if (name === 'page.mp3') return reply.type('text/html').send('<html>not audio</html>');
    return reply.code(404).send({ code: 'NOT_FOUND' });
  });
  await app.ready();

  return {
    publicUrl,
    replace(next) {
      current = next;
    },
    async close() {
      await app.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
