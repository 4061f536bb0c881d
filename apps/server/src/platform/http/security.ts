import type { IncomingMessage, ServerResponse } from 'node:http';
import { GTM_ORIGIN } from '@ecoa/shared';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Security headers. The session token lives in localStorage (spec), so XSS must have no
 * foothold: scripts only from our own origin, no inline script, no eval, no plugins,
 * no framing. Mantine sets inline `style` attributes, hence `'unsafe-inline'` for styles only.
 * Images may also come from PUBLIC_URL's origin: absolute links such as `userProfileImageLink`
 * point there, and the page may have been opened under another name (127.0.0.1 vs localhost).
 * With a Google Tag Manager container (GTM_CONTAINER_ID), its one host may serve scripts, be
 * called and serve images; without one, no other host is allowed anything.
 *
 * The headers are the same for every response, so helmet computes them once here; a route with
 * a page of its own (a rotating link's pixel page) overrides the CSP with `reply.header`.
 * (@fastify/helmet would build helmet's middleware again at every request: 2–3% of a small
 * API request's CPU in the `api` bench.)
 */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  options: { publicUrl?: string; gtmContainerId?: string } = {},
): Promise<void> {
  const publicOrigin = options.publicUrl ? new URL(options.publicUrl).origin : undefined;
  const tagManager = options.gtmContainerId ? [GTM_ORIGIN] : [];
  const headers = securityHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...tagManager],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...(publicOrigin ? [publicOrigin] : []), ...tagManager],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...tagManager],
        mediaSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: false,
  });
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}

/** The headers helmet would set with `options`, collected from a response stand-in. */
function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string) => {
      headers[name.toLowerCase()] = value;
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
  });
  return headers;
}
