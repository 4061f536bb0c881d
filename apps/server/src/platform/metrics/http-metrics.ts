import type { FastifyInstance } from 'fastify';
import type { MetricFamily, Sample } from './exposition.ts';

/**
 * Requests and latency per route. Every response passes through `record`, so it is kept to
 * two Map lookups and a few increments on preallocated arrays: no label objects, no string
 * building, no library. The label sets are built only when Prometheus scrapes.
 */

/** Upper bounds in seconds: 5 ms (a cached read) to 10 s (an export or an upload). */
export const HTTP_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

/** Requests that matched no route share one series: raw URLs would make one series per scanner probe. */
export const UNMATCHED_ROUTE = 'unmatched';

type RouteSeries = {
  /** Requests per status code. */
  statuses: Map<number, number>;
  /** Non-cumulative counts per bucket; the last slot is above the largest bound (+Inf). */
  buckets: Float64Array;
  sum: number;
  count: number;
};

export type HttpMetrics = {
  record(method: string, route: string, status: number, seconds: number): void;
  families(): MetricFamily[];
};

export function createHttpMetrics(bounds: readonly number[] = HTTP_DURATION_BUCKETS): HttpMetrics {
  /** route → method → series. Nested so the hot path never concatenates a key. */
  const byRoute = new Map<string, Map<string, RouteSeries>>();

  function seriesOf(method: string, route: string): RouteSeries {
    let byMethod = byRoute.get(route);
    if (!byMethod) {
      byMethod = new Map();
      byRoute.set(route, byMethod);
    }
    let series = byMethod.get(method);
    if (!series) {
      series = { statuses: new Map(), buckets: new Float64Array(bounds.length + 1), sum: 0, count: 0 };
      byMethod.set(method, series);
    }
    return series;
  }

  return {
    record(method, route, status, seconds) {
      const series = seriesOf(method, route);
      series.statuses.set(status, (series.statuses.get(status) ?? 0) + 1);
      let i = 0;
      while (i < bounds.length && seconds > (bounds[i] as number)) i++;
      series.buckets[i] = (series.buckets[i] as number) + 1;
      series.sum += seconds;
      series.count++;
    },

    families() {
      const requests: Sample[] = [];
      const durations: Sample[] = [];
      for (const [route, byMethod] of byRoute) {
        for (const [method, series] of byMethod) {
          for (const [status, count] of series.statuses) {
            requests.push({ labels: { method, route, status: String(status) }, value: count });
          }
          let cumulative = 0;
          for (let i = 0; i <= bounds.length; i++) {
            cumulative += series.buckets[i] as number;
            const le = i < bounds.length ? String(bounds[i]) : '+Inf';
            durations.push({ suffix: '_bucket', labels: { method, route, le }, value: cumulative });
          }
          durations.push({ suffix: '_sum', labels: { method, route }, value: series.sum });
          durations.push({ suffix: '_count', labels: { method, route }, value: series.count });
        }
      }
      return [
        {
          name: 'ecoa_http_requests_total',
          help: 'HTTP requests answered, by method, route pattern and status code.',
          type: 'counter',
          samples: requests,
        },
        {
          name: 'ecoa_http_request_duration_seconds',
          help: 'Time to answer an HTTP request, by method and route pattern.',
          type: 'histogram',
          samples: durations,
        },
      ];
    },
  };
}

/**
 * Records every response of `app` except those of `excludeRoute` (the scrape itself). The route
 * is the pattern Fastify matched (`/api/v1/lists/:id`), never the URL; `reply.elapsedTime` is
 * the time Fastify already measured, in milliseconds.
 */
export function recordHttpMetrics(app: FastifyInstance, metrics: HttpMetrics, excludeRoute: string): void {
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
    if (route !== excludeRoute) metrics.record(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}
