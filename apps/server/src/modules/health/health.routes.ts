import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../platform/errors/app-error.ts';

export type HealthDeps = {
  /** True once migrations ran and the job queue started. */
  isReady: () => boolean;
  pingDb: () => Promise<void>;
};

export function registerHealthRoutes(app: FastifyInstance, deps: HealthDeps): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/health',
    {
      schema: {
        tags: ['system'],
        summary: 'Liveness and readiness',
        response: { 200: z.object({ status: z.literal('ok') }) },
      },
      logLevel: 'warn',
    },
    async () => {
      if (!deps.isReady()) throw new AppError('NOT_READY');
      await deps.pingDb();
      return { status: 'ok' as const };
    },
  );
}
