import crypto from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './platform/config/config.ts';
import type { DbHandle } from './platform/db/client.ts';
import { registerApiDocs } from './platform/http/docs.ts';
import { registerErrorHandling } from './platform/http/error-handler.ts';
import { registerInputGuard } from './platform/http/input-guard.ts';
import { registerLocales } from './platform/http/locales.ts';
import { registerSecurityHeaders } from './platform/http/security.ts';
import { registerSpa } from './platform/http/spa.ts';
import type { Jobs } from './platform/jobs/jobs.ts';
import type { Logger } from './platform/logger.ts';
import { WEB_LOCALES_DIR, WEB_ROOT } from './platform/paths.ts';

export type AppDeps = {
  config: Config;
  db: DbHandle;
  jobs: Jobs;
  logger: Logger;
  /** Where the built SPA lives; tests point it at a fixture. */
  webRoot?: string;
  localesDir?: string;
};

/**
 * Builds the HTTP application: platform plugins first, then each module's routes.
 * Starting the database and the job queue is the caller's job (see server.ts).
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && /^[\w-]{8,64}$/.test(incoming) ? incoming : crypto.randomUUID();
    },
    trustProxy: deps.config.trustProxy,
    bodyLimit: 1024 * 1024,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    done(null, payload);
  });

  registerErrorHandling(app);
  registerInputGuard(app);
  await registerSecurityHeaders(app, { publicUrl: deps.config.publicUrl, gtmContainerId: deps.config.gtmContainerId });
  await registerApiDocs(app);

  registerLocales(app, deps.localesDir ?? WEB_LOCALES_DIR);
  await registerSpa(app, { webRoot: deps.webRoot ?? WEB_ROOT });
  return app;
}
