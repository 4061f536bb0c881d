import { publicUserSchema, signupPayloadSchema } from '@ecoa/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { readToken } from '../../platform/auth/guard.ts';
import { errorResponseSchema as errorResponse } from '../../platform/http/error-schema.ts';
import type { UsersService } from './users.service.ts';

export function registerUsersRoutes(app: FastifyInstance, deps: { users: UsersService }): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { users } = deps;

  r.post(
    '/api/user',
    {
      schema: {
        tags: ['users'],
        summary: 'Company sign-up',
        body: signupPayloadSchema,
        response: { 201: publicUserSchema, 400: errorResponse, 409: errorResponse, 429: errorResponse },
      },
    },
    async (request, reply) => {
      const user = await users.signUp(request.body, { ip: request.ip });
      return reply.status(201).send(user);
    },
  );

  r.get(
    '/api/me',
    {
      // No guard: getMe checks the session and reads the account in one statement.
      schema: {
        tags: ['users'],
        summary: 'The signed-in user',
        security: [{ bearer: [] }],
        response: { 200: publicUserSchema, 401: errorResponse },
      },
    },
    async (request) => users.getMe(readToken(request.headers.authorization)),
  );
}
