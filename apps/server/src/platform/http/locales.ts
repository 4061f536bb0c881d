import fs from 'node:fs';
import path from 'node:path';
import { LANGUAGES } from '@ecoa/shared';
import type { FastifyInstance } from 'fastify';

/**
 * `GET /locales/{lng}.json`: the translation files. They are read from the web app's
 * source folder so that the API works (and tests run) without a web build.
 */
export function registerLocales(app: FastifyInstance, localesDir: string): void {
  app.get<{ Params: { lng: string } }>('/locales/:lng', { schema: { hide: true } }, async (request, reply) => {
    const lng = request.params.lng.replace(/\.json$/, '');
    if (!(LANGUAGES as readonly string[]).includes(lng)) return reply.callNotFound();
    const file = path.join(localesDir, `${lng}.json`);
    const body = await fs.promises.readFile(file);
    return reply.header('cache-control', 'no-cache').type('application/json; charset=utf-8').send(body);
  });
}
