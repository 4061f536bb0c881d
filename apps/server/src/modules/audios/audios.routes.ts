import { Readable } from 'node:stream';
import { audioRenameSchema, audioSchema, MAX_AUDIO_BYTES, namedPageQuerySchema, pageSchema } from '@ecoa/shared';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type AuthGuard, currentUser } from '../../platform/auth/guard.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { parseByteRange } from '../../platform/http/byte-range.ts';
import { errorResponseSchema as errorResponse } from '../../platform/http/error-schema.ts';
import { ownedRoutes } from '../../platform/http/owned-routes.ts';
import { routeOptions } from '../../platform/http/route-options.ts';
import { receiveUpload } from '../../platform/http/upload.ts';
import type { AudioStorage } from './audio-storage.ts';
import type { AudioFile, AudiosService } from './audios.service.ts';

const idParams = z.object({ id: z.uuid() });

/** The upload form's file goes to the audios folder, refused with the audios' own codes. */
function audioUpload(request: FastifyRequest, storage: AudioStorage) {
  return receiveUpload(
    request,
    { save: (stream) => storage.receive(stream), remove: (path) => storage.discard(path) },
    {
      required: () => new AppError('AUDIO_REQUIRED'),
      tooLarge: () => new AppError('AUDIO_TOO_LARGE', { maxBytes: MAX_AUDIO_BYTES }),
    },
  );
}

/**
 * Sends an audio file: whole (200) or the one byte range asked for (206), so a player can seek;
 * a range past the end is 416. `If-Range` with another validator gets the whole file. HEAD
 * answers the headers only.
 */
async function sendAudio(
  request: FastifyRequest,
  reply: FastifyReply,
  opened: AudioFile,
  cacheControl: string,
): Promise<FastifyReply> {
  const { file } = opened;
  const etag = `"${opened.audio.id}"`;
  let range = parseByteRange(request.headers.range, file.size);
  const ifRange = request.headers['if-range'];
  if (range !== null && ifRange !== undefined && ifRange !== etag) range = null;
  if (range === 'unsatisfiable') {
    await file.close();
    reply.header('content-range', `bytes */${file.size}`);
    throw new AppError('AUDIO_RANGE_NOT_SATISFIABLE');
  }
  reply
    .type(opened.contentType)
    .header('accept-ranges', 'bytes')
    .header('etag', etag)
    .header('cache-control', cacheControl)
    .header('content-length', String(range ? range.end - range.start + 1 : file.size));
  if (range) reply.status(206).header('content-range', `bytes ${range.start}-${range.end}/${file.size}`);
  if (request.method === 'HEAD') {
    // Fastify's HEAD route drains a stream and keeps our content-length: an empty one reads nothing.
    await file.close();
    return reply.send(Readable.from([]));
  }
  return reply.send(file.stream(range ?? undefined));
}

export type AudiosRoutesDeps = { audios: AudiosService; storage: AudioStorage; guard: AuthGuard };

/**
 * `/api/v1/audios`: the signed-in user's audios (upload, list, play, rename, delete), and
 * `/api/v1/audios/play/<token>`, an audio served to whoever holds an unexpired signed link (the
 * carrier's `<Play>`), without a session.
 */
export async function registerAudiosRoutes(app: FastifyInstance, deps: AudiosRoutesDeps): Promise<void> {
  const { audios, storage, guard } = deps;
  const tags = ['audios'];
  const userRoute = routeOptions(guard.requireUser, { tags });

  await app.register(async (scope) => {
    // Multipart only in this scope, with the audio's own limit.
    await scope.register(multipart, {
      limits: { fileSize: MAX_AUDIO_BYTES, files: 1, fields: 5, fieldSize: 4 * 1024, parts: 8 },
    });
    const r = scope.withTypeProvider<ZodTypeProvider>();

    r.post(
      '/api/v1/audios',
      userRoute({
        summary: 'Upload an audio (multipart: file, name): MP3, WAV or OGG by content, ≤ 10 MB, ≤ 3 minutes',
        consumes: ['multipart/form-data'],
        response: { 201: audioSchema, 400: errorResponse, 413: errorResponse, 415: errorResponse },
      }),
      async (request, reply) => {
        const user = currentUser(request);
        const { file, fields } = await audioUpload(request, storage);
        if (!file) throw new AppError('AUDIO_REQUIRED');
        const created = await audios.upload({ userId: user.id, name: fields.name, file });
        return reply.status(201).send(created);
      },
    );

    const audio = ownedRoutes(scope, userRoute, { path: '/api/v1/audios', params: idParams });
    audio.list(
      {
        summary: 'The user’s audios, newest first',
        querystring: namedPageQuerySchema,
        response: pageSchema(audioSchema),
      },
      (userId, { page, pageSize, q }) => audios.list(userId, page, pageSize, q),
    );
    audio.get({ summary: 'An audio', response: audioSchema }, (userId, id) => audios.get(userId, id));

    r.get(
      '/api/v1/audios/:id/file',
      userRoute({
        summary: 'The audio file, for the owner’s player (HTTP Range requests answered 206)',
        params: idParams,
      }),
      async (request, reply) => {
        const opened = await audios.openFile(currentUser(request).id, request.params.id);
        return sendAudio(request, reply, opened, 'private, no-cache');
      },
    );

    audio.update(
      { summary: 'Rename an audio', body: audioRenameSchema, response: audioSchema, errors: { 400: errorResponse } },
      (userId, id, body) => audios.rename(userId, id, body.name),
    );
    audio.remove(
      { summary: 'Delete an audio (409 AUDIO_IN_USE while a scheduled or running campaign plays it)' },
      (userId, id) => audios.remove(userId, id),
    );
  });

  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/v1/audios/play/:token',
    {
      schema: {
        tags,
        summary:
          'An audio by its signed playback link (no session: the carrier fetches it); 401 when forged or expired',
        params: z.object({ token: z.string().max(200) }),
      },
    },
    async (request, reply) => {
      const opened = await audios.openByToken(request.params.token);
      // A carrier may cache it while the link lives (an hour at most); the API may be on another host.
      const maxAge = Math.max(0, Math.min(3600, opened.secondsLeft));
      reply.header('cross-origin-resource-policy', 'cross-origin');
      return sendAudio(request, reply, opened, `public, max-age=${maxAge}`);
    },
  );
}
