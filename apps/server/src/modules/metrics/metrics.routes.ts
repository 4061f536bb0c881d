import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../platform/errors/app-error.ts';
import { EXPOSITION_CONTENT_TYPE } from '../../platform/metrics/exposition.ts';
import type { MetricsService } from './metrics.service.ts';

export const METRICS_PATH = '/metrics';

export type MetricsRoutesDeps = {
  /** METRICS_TOKEN; unset → the route answers 404 as if it did not exist. */
  token: string | undefined;
  service: MetricsService | undefined;
};

/**
 * Compares digests, not the strings: equal lengths whatever was sent, so the time taken says
 * nothing about the token (neither its length nor a common prefix).
 */
function sameToken(given: string, expected: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

function bearerOf(header: string | undefined): string | undefined {
  const match = /^Bearer +(.+)$/i.exec(header ?? '');
  return match?.[1]?.trim();
}

/**
 * `GET /metrics` for Prometheus. Always mounted, so that without METRICS_TOKEN it is a JSON 404
 * rather than the SPA's catch-all answering index.html.
 */
export function registerMetricsRoutes(app: FastifyInstance, deps: MetricsRoutesDeps): void {
  app.get(METRICS_PATH, { schema: { hide: true }, logLevel: 'warn' }, async (request, reply) => {
    const { token, service } = deps;
    if (!token || !service) return reply.callNotFound();
    const given = bearerOf(request.headers.authorization);
    if (given === undefined || !sameToken(given, token)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      throw new AppError('UNAUTHORIZED', undefined, { why: 'metricsToken' });
    }
    const body = await service.scrape();
    return reply.header('cache-control', 'no-store').type(EXPOSITION_CONTENT_TYPE).send(body);
  });
}
