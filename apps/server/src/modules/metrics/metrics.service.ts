import { CHANNELS, MESSAGE_STATUSES } from '@ecoa/shared';
import type { MetricFamily, Sample } from '../../platform/metrics/exposition.ts';
import { renderExposition } from '../../platform/metrics/exposition.ts';
import type { HttpMetrics } from '../../platform/metrics/http-metrics.ts';
import type { ProcessMetrics } from '../../platform/metrics/process-metrics.ts';
import type { ChannelProvider } from '../channels/index.ts';
import type { MetricsRepository } from './metrics.repository.ts';

/** pg-boss 10's job states (`pgboss.job_state`). */
const JOB_STATES = ['created', 'retry', 'active', 'completed', 'cancelled', 'failed'] as const;

export type MetricsServiceDeps = {
  http: HttpMetrics;
  process: ProcessMetrics;
  repo: MetricsRepository;
  providers: () => readonly ChannelProvider[];
  logger: { warn(obj: object, msg: string): void };
};

export type MetricsService = {
  /** The whole exposition: HTTP, jobs, messages, providers, process. */
  scrape(): Promise<string>;
};

/** Providers that count receipts matching no message (SMPP): one sample each. */
function unmatchedReceipts(providers: readonly ChannelProvider[]): Sample[] {
  return providers.flatMap((p) => {
    const counters = p.receiptCounters?.();
    return counters ? [{ labels: { provider: p.name }, value: counters.unmatchedReceipts }] : [];
  });
}

export function createMetricsService(deps: MetricsServiceDeps): MetricsService {
  async function jobSamples(): Promise<Sample[]> {
    const counts = new Map<string, Map<string, number>>();
    for (const row of await deps.repo.jobCounts()) {
      const byState = counts.get(row.queue) ?? new Map<string, number>(JOB_STATES.map((s) => [s, 0]));
      counts.set(row.queue, byState);
      if (row.state !== null) byState.set(row.state, row.count);
    }
    return [...counts].flatMap(([queue, byState]) =>
      [...byState].map(([state, value]) => ({ labels: { queue, state }, value })),
    );
  }

  /** Read from the counts kept as messages move: as cheap as the jobs' read, so read at every scrape. */
  async function messageSamples(): Promise<Sample[]> {
    const counts = new Map<string, number>();
    for (const row of await deps.repo.messageCounts()) counts.set(`${row.channel} ${row.status}`, row.count);
    // Every (channel, status) pair is present, 0 when no message has it, so a series never vanishes.
    return CHANNELS.flatMap((channel) =>
      MESSAGE_STATUSES.map((status) => ({
        labels: { channel, status },
        value: counts.get(`${channel} ${status}`) ?? 0,
      })),
    );
  }

  /** A source that fails (a timeout, the database away) costs its own families, never the whole scrape. */
  async function settle(source: string, samples: Promise<Sample[]>): Promise<{ source: string; samples?: Sample[] }> {
    try {
      return { source, samples: await samples };
    } catch (err) {
      deps.logger.warn({ err, source }, 'metrics: a source failed');
      return { source };
    }
  }

  return {
    async scrape() {
      const [jobs, msgs] = await Promise.all([settle('jobs', jobSamples()), settle('messages', messageSamples())]);
      const families: MetricFamily[] = [...deps.http.families()];
      if (jobs.samples) {
        families.push({
          name: 'ecoa_jobs',
          help: 'Background jobs by queue and pg-boss state (archived jobs excluded).',
          type: 'gauge',
          samples: jobs.samples,
        });
      }
      if (msgs.samples) {
        families.push({
          name: 'ecoa_messages',
          help: 'Messages by channel and status.',
          type: 'gauge',
          samples: msgs.samples,
        });
      }
      families.push(
        {
          name: 'ecoa_metrics_source_up',
          help: 'Whether the last scrape could read a database source (1) or not (0).',
          type: 'gauge',
          samples: [jobs, msgs].map((s) => ({ labels: { source: s.source }, value: s.samples ? 1 : 0 })),
        },
        {
          name: 'ecoa_provider_up',
          help: 'Whether a channel provider is connected: SMPP bound, HTTP APIs reachable (1) or not (0).',
          type: 'gauge',
          samples: deps.providers().map((p) => ({ labels: { provider: p.name }, value: p.health().connected ? 1 : 0 })),
        },
        {
          name: 'ecoa_provider_receipts_unmatched_total',
          help: 'Carrier receipts whose id matched no stored message when they came (kept in case their submit was being stored).',
          type: 'counter',
          samples: unmatchedReceipts(deps.providers()),
        },
        ...deps.process.families(),
      );
      return renderExposition(families);
    },
  };
}
