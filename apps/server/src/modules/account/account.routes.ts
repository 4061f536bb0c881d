import { accountProfileSchema, PROFILE_IMAGE_MAX_BYTES, profileUpdateSchema, sessionInfoSchema } from '@ecoa/shared';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type AuthGuard, currentSessionId, currentUser } from '../../platform/auth/guard.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { errorResponseSchema as errorResponse } from '../../platform/http/error-schema.ts';
import { routeOptions } from '../../platform/http/route-options.ts';
import type { AccountService } from './account.service.ts';
import { AVATAR_NAME } from './avatar-storage.ts';

/** A picture is cached for a year: its name changes with every upload, so a file never changes. */
const AVATAR_CACHE = 'public, max-age=31536000, immutable';

/**
 * The `file` part of a multipart form, in memory (at most 2 MB, the multipart limit below).
 * Other parts are drained and ignored.
 */
async function receiveImage(request: FastifyRequest): Promise<Buffer | undefined> {
  if (!request.isMultipart()) throw new AppError('IMAGE_REQUIRED');
  let bytes: Buffer | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== 'file' || bytes) {
        part.file.resume();
        continue;
      }
      bytes = await part.toBuffer();
    }
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('IMAGE_TOO_LARGE', { maxBytes: PROFILE_IMAGE_MAX_BYTES });
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') {
      throw new AppError('IMAGE_REQUIRED');
    }
    throw err;
  }
  return bytes;
}

/**
 * `/api/v1/me/*`: the signed-in user's own profile, picture and sessions; and
 * `/api/v1/avatars/<name>.webp`, the pictures themselves, public by their unguessable name so an
 * `<img>` loads them without the token (which lives in localStorage, not in a cookie).
 */
export async function registerAccountRoutes(
  app: FastifyInstance,
  deps: { account: AccountService; guard: AuthGuard },
): Promise<void> {
  const { account, guard } = deps;
  const tags = ['account'];
  const userRoute = routeOptions(guard.requireUser, { tags });

  await app.register(async (scope) => {
    // Multipart only in this scope, with the picture's own limit.
    await scope.register(multipart, {
      limits: { fileSize: PROFILE_IMAGE_MAX_BYTES, files: 1, fields: 5, fieldSize: 1024, parts: 6 },
    });
    const r = scope.withTypeProvider<ZodTypeProvider>();

    r.get(
      '/api/v1/me/profile',
      userRoute({ summary: 'The signed-in user’s profile', response: { 200: accountProfileSchema } }),
      async (request) => account.getProfile(currentUser(request).id),
    );

    r.patch(
      '/api/v1/me/profile',
      userRoute({
        summary: 'Change the full name, company name or mobile phone (the sign-up rules)',
        body: profileUpdateSchema,
        response: { 200: accountProfileSchema, 400: errorResponse },
      }),
      async (request) => account.updateProfile(currentUser(request).id, request.body),
    );

    r.put(
      '/api/v1/me/avatar',
      userRoute({
        summary: 'Set the profile picture (multipart `file`: PNG, JPEG or WebP, ≤ 2 MB; stored as 256×256 WebP)',
        consumes: ['multipart/form-data'],
        response: { 200: accountProfileSchema, 400: errorResponse, 413: errorResponse, 415: errorResponse },
      }),
      async (request) => {
        const user = currentUser(request);
        return account.setPicture(user.id, await receiveImage(request));
      },
    );

    r.delete(
      '/api/v1/me/avatar',
      userRoute({ summary: 'Remove the profile picture', response: { 200: accountProfileSchema } }),
      async (request) => account.removePicture(currentUser(request).id),
    );

    r.get(
      '/api/v1/avatars/:file',
      {
        schema: {
          tags,
          summary: 'A profile picture (public by its unguessable name, cached for a year)',
          params: z.object({ file: z.string().max(64) }),
        },
      },
      async (request, reply) => {
        const { file } = request.params;
        const bytes = AVATAR_NAME.test(file) ? await account.readPicture(file) : null;
        if (!bytes) throw new AppError('AVATAR_NOT_FOUND');
        return (
          reply
            .type('image/webp')
            .header('cache-control', AVATAR_CACHE)
            // The API may live on another host than the web app (VITE_API_URL): let its <img> load it.
            .header('cross-origin-resource-policy', 'cross-origin')
            .send(bytes)
        );
      },
    );

    r.get(
      '/api/v1/me/sessions',
      userRoute({
        summary: 'The signed-in user’s live sessions, this one first',
        response: { 200: z.object({ items: z.array(sessionInfoSchema) }) },
      }),
      async (request) => {
        const user = currentUser(request);
        return { items: await account.listSessions(user.id, currentSessionId(request)) };
      },
    );

    r.delete(
      '/api/v1/me/sessions/:id',
      userRoute({
        summary: 'Sign out of one device (this one too: `current` says so)',
        params: z.object({ id: z.uuid() }),
        response: { 200: z.object({ current: z.boolean() }), 404: errorResponse },
      }),
      async (request) => {
        const user = currentUser(request);
        return account.endSession(user.id, currentSessionId(request), request.params.id);
      },
    );

    r.delete(
      '/api/v1/me/sessions',
      userRoute({
        summary: 'Sign out of all devices, this one included',
        response: { 200: z.object({ ended: z.number() }) },
      }),
      async (request) => account.endAllSessions(currentUser(request).id),
    );
  });
}
