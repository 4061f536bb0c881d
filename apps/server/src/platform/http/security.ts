import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * Security headers. The session token lives in localStorage (spec), so XSS must have no
 * foothold: scripts only from our own origin, no inline script, no eval, no plugins,
 * no framing. Mantine sets inline `style` attributes, hence `'unsafe-inline'` for styles only.
 * Images may also come from PUBLIC_URL's origin: absolute links such as `userProfileImageLink`
 * point there, and the page may have been opened under another name (127.0.0.1 vs localhost).
 */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  options: { publicUrl?: string } = {},
): Promise<void> {
  const publicOrigin = options.publicUrl ? new URL(options.publicUrl).origin : undefined;
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...(publicOrigin ? [publicOrigin] : [])],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
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
}
