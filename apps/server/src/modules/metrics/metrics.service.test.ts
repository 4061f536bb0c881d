import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKind, isolatedDatabaseUrl, openTestDb, silentLogger } from '../../../test/server.test-support.ts';
import { type DbHandle, openDb } from '../../platform/db/client.ts';
import { createHttpMetrics } from '../../platform/metrics/http-metrics.ts';
import { createProcessMetrics } from '../../platform/metrics/process-metrics.ts';
import { createMessageCountsRepository } from '../channels/message-counts.repository.ts';
import { createMessageCounts } from '../channels/message-counts.ts';
import { createMetricsRepository, type MetricsRepository } from './metrics.repository.ts';
import { createMetricsService } from './metrics.service.ts';

/**
 * The metrics service over the real repository and a database of its own (on PostgreSQL a copy
 * of the template, so other test files' messages do not move the counts).
 */
describe(`the metrics service (${dbKind})`, () => {
  let db: DbHandle;
  let own: Awaited<ReturnType<typeof isolatedDatabaseUrl>>;
  const processMetrics = createProcessMetrics();

  beforeAll(async () => {
    own = await isolatedDatabaseUrl();
    db = own ? await openDb({ databaseUrl: own.url, poolSize: 2 }) : await openTestDb();
  });
  afterAll(async () => {
    processMetrics.stop();
    await db?.close();
    await own?.drop();
  });

  function serviceWith(repo: MetricsRepository) {
    return createMetricsService({
      http: createHttpMetrics(),
      process: processMetrics,
      repo,
      providers: () => [],
      logger: silentLogger,
    });
  }

  it('keeps scraping when a source fails, saying which one, and retries it next time', async () => {
    const service = serviceWith(createMetricsRepository(db, createMessageCounts(createMessageCountsRepository(db))));
    // A real failure of the messages count: the table it reads (the kept counts) is gone for a moment.
    await db.executeSql('alter table message_status_counts rename to message_status_counts_away');
    let first: string;
    try {
      first = await service.scrape();
    } finally {
      await db.executeSql('alter table message_status_counts_away rename to message_status_counts');
    }
    expect(first).not.toContain('ecoa_messages{');
    expect(first).toContain('ecoa_metrics_source_up{source="messages"} 0\n');
    expect(first).toContain('ecoa_metrics_source_up{source="jobs"} 1\n');
    // A declared queue with no job still has every state, at 0.
    const { rows } = await db.executeSql('select name from pgboss.queue order by name limit 1');
    const queue = (rows[0] as { name: string }).name;
    expect(first).toContain(`ecoa_jobs{queue="${queue}",state="created"} 0\n`);
    const second = await service.scrape();
    expect(second).toContain('ecoa_metrics_source_up{source="messages"} 1\n');
    expect(second).toContain('ecoa_messages{channel="rcs",status="queued"} 0\n');
  });
});
