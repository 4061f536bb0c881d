/**
 * Serves a provider's webhook routes over real HTTP the way the channels module mounts them:
 * under `/api/webhooks/<provider>`, the exact raw body whatever its content type, the full
 * public URL, refusals answered by the one error handler. For the providers' tests, the fuzz suite and the bench, until (and beside) the
 * real server's mounting.
 */
import Fastify from 'fastify';
import { registerErrorHandling } from '../../../../platform/http/error-handler.ts';
import type { WebhookRoute } from '../../provider.ts';

export type WebhookServer = {
  /** `http://127.0.0.1:<port>/api/webhooks/<provider>`: a route's URL is this plus its path. */
  baseUrl: string;
  app: ReturnType<typeof Fastify>;
  close(): Promise<void>;
};

export async function serveWebhooks(
  provider: string,
  routes: readonly WebhookRoute[],
  options: { host?: string; port?: number } = {},
): Promise<WebhookServer> {
  // Larger than any provider's own limit, so the provider's answer to an oversized body is what is seen.
  const app = Fastify({ bodyLimit: 16 * 1024 * 1024 });
  // Refusals (thrown AppErrors) are answered by the app's one error handler, as in the server.
  registerErrorHandling(app);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  const prefix = `/api/webhooks/${provider}`;
  let publicBase = '';
  for (const route of routes) {
    app.route({
      method: route.method,
      url: `${prefix}${route.path}`,
      handler: async (request, reply) => {
        const headers: Record<string, string | undefined> = {};
        for (const [name, value] of Object.entries(request.headers)) {
          headers[name] = Array.isArray(value) ? value.join(', ') : value;
        }
        const answer = await route.handle(
          {
            method: route.method,
            url: `${publicBase}${request.url}`,
            headers,
            query: request.query as Record<string, string>,
            rawBody: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
          },
          request.params as Record<string, string>,
        );
        reply.code(answer.status);
        if (answer.contentType) reply.type(answer.contentType);
        return reply.send(answer.body ?? '');
      },
    });
  }
  const address = await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
  publicBase = address;
  return { baseUrl: `${address}${prefix}`, app, close: () => app.close() };
}
