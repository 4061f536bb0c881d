import { describe, expect, it } from 'vitest';
import { createHttpMetrics } from '../../platform/metrics/http-metrics.ts';
import type { ProcessMetrics } from '../../platform/metrics/process-metrics.ts';
import type { MetricsRepository } from './metrics.repository.ts';
import { createMetricsService } from './metrics.service.ts';

const noProcess: ProcessMetrics = { families: () => [], stop: () => {} };

function serviceWith(repo: Partial<MetricsRepository>) {
  return createMetricsService({
    http: createHttpMetrics(),
    process: noProcess,
    repo: { jobCounts: async () => [], messageCounts: async () => [], ...repo },
    providers: () => [],
    logger: { warn: () => {} },
  });
}

describe('the metrics service', () => {
  it('keeps scraping when a source fails, saying which one, and retries it next time', async () => {
    let fail = true;
    const service = serviceWith({
      messageCounts: async () => {
        if (fail) throw new Error('canceling statement due to statement timeout');
        return [];
      },
      jobCounts: async () => [{ queue: 'q', state: null, count: 0 }],
    });
    const first = await service.scrape();
    expect(first).not.toContain('ecoa_messages{');
    expect(first).toContain('ecoa_metrics_source_up{source="messages"} 0\n');
    expect(first).toContain('ecoa_metrics_source_up{source="jobs"} 1\n');
    // An empty queue still has every state, at 0.
    expect(first).toContain('ecoa_jobs{queue="q",state="created"} 0\n');
    fail = false;
    const second = await service.scrape();
    expect(second).toContain('ecoa_metrics_source_up{source="messages"} 1\n');
    expect(second).toContain('ecoa_messages{channel="rcs",status="queued"} 0\n');
  });
});
