import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Clock } from '../../platform/clock/clock.ts';
import type { Hop, HopAnswer } from './links.hop.ts';
import { languageOf, messagePage } from './links.pages.ts';

/** The visitor's cookies (the sticky target), from the Cookie header. */
function cookiesOf(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) cookies[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
  }
  return cookies;
}

/**
 * Clicks per IP per minute, in this process: a person clicks a link a few times; a script
 * hammering it gets the friendly "too many visits" page instead of moving the rotation.
 */
export function createIpLimiter(perMinute: number, now: () => number) {
  let window = Math.floor(now() / 60_000);
  let counts = new Map<string, number>();
  return (ip: string): boolean => {
    const current = Math.floor(now() / 60_000);
    if (current !== window) {
      window = current;
      counts = new Map();
    }
    const n = (counts.get(ip) ?? 0) + 1;
    counts.set(ip, n);
    return n <= perMinute;
  };
}

function send(reply: FastifyReply, answer: HopAnswer) {
  reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer-when-downgrade');
  if (answer.cookie) {
    const c = answer.cookie;
    reply.header(
      'set-cookie',
      `${c.name}=${c.value}; Path=${c.path}; Max-Age=${c.maxAgeSeconds}; HttpOnly; SameSite=Lax`,
    );
  }
  if (answer.location) return reply.redirect(answer.location, answer.status as 302);
  if (answer.csp) reply.header('content-security-policy', answer.csp);
  return reply.status(answer.status).type('text/html; charset=utf-8').send(answer.html);
}

/** `GET /l/:slug`: the public hop (no sign-in). */
export function registerHopRoute(
  app: FastifyInstance,
  deps: { hop: Hop; clock: Clock; clicksPerIpPerMinute?: number },
) {
  const allowed = createIpLimiter(deps.clicksPerIpPerMinute ?? 120, () => deps.clock.now().getTime());
  app.get<{ Params: { slug: string }; Querystring: Record<string, unknown> }>(
    '/l/:slug',
    { schema: { hide: true }, logLevel: 'warn' },
    async (request, reply) => {
      const language = languageOf(request.headers['accept-language']);
      if (!allowed(request.ip)) {
        return send(reply, { status: 429, html: messagePage('tooMany', language) });
      }
      const param = request.params.slug;
      // `_<code>`: a campaign recipient's tracked link (case matters); otherwise a link's slug.
      const code = /^_[0-9A-Za-z]{6,20}$/.test(param) ? param.slice(1) : null;
      const slug = param.toLowerCase();
      if (!code && !/^[a-z0-9-]{1,60}$/.test(slug))
        return send(reply, { status: 404, html: messagePage('notFound', language) });
      const country = request.headers['cf-ipcountry'];
      const hopRequest = {
        slug,
        ip: request.ip,
        userAgent: request.headers['user-agent'],
        referrer: request.headers.referer,
        acceptLanguage: request.headers['accept-language'],
        query: request.query ?? {},
        cookies: cookiesOf(request.headers.cookie),
        country: typeof country === 'string' ? country.toUpperCase() : undefined,
      };
      // A visitor never sees an error trace: a failure is the friendly "try later" page (logged).
      const answer = await (code ? deps.hop.tracked(code, hopRequest) : deps.hop.hop(hopRequest)).catch(
        (err: unknown): HopAnswer => {
          request.log.error({ err, slug: param }, 'link hop failed');
          return { status: 503, html: messagePage('unavailable', language) };
        },
      );
      return send(reply, answer);
    },
  );
}
