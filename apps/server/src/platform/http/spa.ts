import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

export type SpaOptions = {
  /** The built web app (index.html, assets/, locales/). */
  webRoot: string;
};

/**
 * Serves the built SPA. Any GET that is not an API call, a public link or a file gets
 * index.html, so client-side routes (`/campanhas`) survive a reload. `/api/*` never does:
 * unknown API paths fall through to the JSON 404.
 */
export async function registerSpa(app: FastifyInstance, { webRoot }: SpaOptions): Promise<void> {
  const indexPath = path.join(webRoot, 'index.html');
  const hasIndex = fs.existsSync(indexPath);
  if (!hasIndex) app.log.warn({ webRoot }, 'web app not built: run `npm run build` (npm start does it for you)');

  await app.register(fastifyStatic, {
    root: webRoot,
    serve: false, // only `reply.sendFile`; the route below decides what to serve
    // @fastify/static 10 passes the Fastify reply here.
    setHeaders(reply: { header(name: string, value: string): unknown }, filePath: string) {
      // Vite fingerprints assets/; everything else may change between releases.
      reply.header(
        'cache-control',
        filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });

  app.get('/*', { schema: { hide: true } }, async (request, reply) => {
    const urlPath = decodeURIComponent(request.url.split('?')[0] ?? '/');
    if (urlPath.startsWith('/api/') || urlPath === '/api') {
      return reply.callNotFound();
    }
    const relative = path.normalize(urlPath).replace(/^([/\\])+/, '');
    const candidate = path.join(webRoot, relative);
    if (relative && candidate.startsWith(webRoot) && isFile(candidate)) {
      return reply.sendFile(relative);
    }
    // A missing file with an extension (e.g. /assets/old.js, /locales/xx.json) is a real 404.
    if (path.extname(relative)) return reply.callNotFound();
    if (!hasIndex) return reply.status(503).type('text/plain').send('Web app not built. Run `npm run build`.');
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}
