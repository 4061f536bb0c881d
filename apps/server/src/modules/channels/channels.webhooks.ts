import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ChannelProvider, WebhookRequest } from './provider.ts';

/** Carriers' callbacks are small; anything bigger is not theirs. */
const WEBHOOK_BODY_LIMIT = 256 * 1024;

function headersOf(request: FastifyRequest): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(request.headers))
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

/**
 * Mounts each provider's webhook routes under `/api/webhooks/<provider>/…`, in a scope of their
 * own that keeps every body as the exact bytes received (signatures are computed over them) and
 * hands the provider the public URL the carrier called (some signatures cover it). The provider
 * verifies, reports its events, and answers; its refusals (`AppError`s) reach the app's one error
 * handler like any route's.
 */
export async function registerProviderWebhooks(
  app: FastifyInstance,
  deps: { providers: readonly ChannelProvider[]; publicUrl: string },
): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) => {
      done(null, body);
    });
    for (const provider of deps.providers) {
      for (const route of provider.webhooks) {
        scope.route({
          method: route.method,
          url: `/api/webhooks/${provider.name}${route.path}`,
          schema: { tags: ['webhooks'], summary: `${provider.name} callback`, hide: true },
          handler: async (request, reply) => {
            const webhook: WebhookRequest = {
              method: route.method,
              url: `${deps.publicUrl}${request.url}`,
              headers: headersOf(request),
              query: Object.fromEntries(
                Object.entries((request.query ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
              ),
              rawBody: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
            };
            const answer = await route.handle(webhook, request.params as Record<string, string>);
            reply.status(answer.status);
            if (answer.contentType) reply.header('content-type', answer.contentType);
            return reply.send(answer.body ?? '');
          },
        });
      }
    }
  });
}
