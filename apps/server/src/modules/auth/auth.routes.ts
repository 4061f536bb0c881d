import { codeSentSchema, loginResponseSchema, loginSchema, requestCodeSchema } from '@ecoa/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { readToken } from '../../platform/auth/guard.ts';
import { errorResponseSchema as errorResponse } from '../../platform/http/error-schema.ts';
import type { AuthService, RequestMeta } from './auth.service.ts';

/** What both code routes answer: the code is on its way, or why not. */
const codeSentResponses = {
  200: codeSentSchema,
  400: errorResponse,
  403: errorResponse,
  404: errorResponse,
  429: errorResponse,
  503: errorResponse,
};

const loginQuerySchema = z.object({
  remainLogin: z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === 'true' || v === '1')),
});

/** The spec's payload; `remainLogin` may come in the body, the query string, or both (body wins). */
const loginBodySchema = loginSchema.extend({ remainLogin: z.boolean().optional() });

function meta(request: FastifyRequest): RequestMeta {
  const ua = request.headers['user-agent'];
  return { ip: request.ip || null, userAgent: typeof ua === 'string' ? ua : null };
}

export function registerAuthRoutes(app: FastifyInstance, deps: { auth: AuthService }): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { auth } = deps;

  r.post(
    '/api/auth/request-code',
    {
      schema: {
        tags: ['auth'],
        summary: 'E-mail a 6-digit sign-in code (valid 10 minutes, once)',
        body: requestCodeSchema,
        response: codeSentResponses,
      },
    },
    async (request) => auth.requestCode(request.body.email, meta(request)),
  );

  r.post(
    '/api/auth/resend-code',
    {
      schema: {
        tags: ['auth'],
        summary: 'E-mail a new code; the previous one stops working',
        body: requestCodeSchema,
        response: codeSentResponses,
      },
    },
    async (request) => auth.resendCode(request.body.email, meta(request)),
  );

  r.post(
    '/api/auth/login',
    {
      schema: {
        tags: ['auth'],
        summary: 'Exchange the code for a session token (12 h, or 30 days idle with remainLogin)',
        querystring: loginQuerySchema,
        body: loginBodySchema,
        response: {
          200: loginResponseSchema,
          400: errorResponse,
          403: errorResponse,
          429: errorResponse,
        },
      },
    },
    async (request) => {
      const remainLogin = request.body.remainLogin ?? request.query.remainLogin ?? false;
      return auth.login({ email: request.body.email, code: request.body.code, remainLogin }, meta(request));
    },
  );

  r.post(
    '/api/auth/logout',
    {
      schema: {
        tags: ['auth'],
        summary: 'Revoke the session token (idempotent)',
        security: [{ bearer: [] }],
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await auth.logout(readToken(request.headers.authorization));
      return reply.status(204).send(null);
    },
  );
}
