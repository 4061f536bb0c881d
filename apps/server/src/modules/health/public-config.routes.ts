import { PUBLIC_CONFIG_PATH, type PublicConfig, publicConfigSchema } from '@ecoa/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/** The settings the web app reads at run time, before sign-in (no secrets: anyone may ask). */
export function registerPublicConfigRoutes(app: FastifyInstance, config: PublicConfig): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    PUBLIC_CONFIG_PATH,
    {
      schema: {
        tags: ['system'],
        summary: "The server's public settings for the web app (the support chat number, the tag manager container)",
        response: { 200: publicConfigSchema },
      },
    },
    async (_request, reply) => {
      // Short: a changed SUPPORT_WHATSAPP reaches open pages after a restart within minutes.
      reply.header('cache-control', 'public, max-age=300');
      return config;
    },
  );
}
